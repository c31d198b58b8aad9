/**
 * A few demo Accounts and their Contacts, so that relationships (Contact.Account) and child relationships
 * (Account.Contacts) have data. Contacts are named by role, not by person. Written once, at first start.
 */
import type { Database } from '../../db/connection.ts';
import { makeId, MASTER_RECORD_TYPE_ID } from '../core/ids.ts';
import { ADMIN_USER_ID, STANDARD_USER_ID } from '../core/principal.ts';

const EPOCH = Date.UTC(2025, 0, 6, 14, 0, 0);
const ACCOUNT_PREFIX = '001';
const CONTACT_PREFIX = '003';

interface DemoAccount {
  owner: string;
  fields: Record<string, string | number>;
  contacts: { LastName: string; Title: string; Department: string; Email: string; Phone: string }[];
}

const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    owner: ADMIN_USER_ID,
    fields: {
      Name: 'Lakeshore Switchgear Group',
      Type: 'Distributor',
      Industry: 'Electronics',
      Phone: '216-555-0142',
      BillingCity: 'Cleveland',
      BillingState: 'Ohio',
      BillingCountry: 'United States',
      NumberOfEmployees: 240,
    },
    contacts: [
      {
        LastName: 'Service Desk',
        Title: 'Customer Service',
        Department: 'Support',
        Email: 'service@lakeshore-switchgear.example',
        Phone: '216-555-0143',
      },
      {
        LastName: 'Purchasing Office',
        Title: 'Procurement',
        Department: 'Purchasing',
        Email: 'purchasing@lakeshore-switchgear.example',
        Phone: '216-555-0144',
      },
      {
        LastName: 'Accounts Payable',
        Title: 'Finance',
        Department: 'Finance',
        Email: 'ap@lakeshore-switchgear.example',
        Phone: '216-555-0145',
      },
    ],
  },
  {
    owner: ADMIN_USER_ID,
    fields: {
      Name: 'Summit Power Systems LLC',
      Type: 'Customer',
      Industry: 'Energy',
      Phone: '303-555-0110',
      BillingCity: 'Denver',
      BillingState: 'Colorado',
      BillingCountry: 'United States',
      NumberOfEmployees: 85,
    },
    contacts: [
      {
        LastName: 'Field Support',
        Title: 'Field Engineering',
        Department: 'Operations',
        Email: 'field@summit-power.example',
        Phone: '303-555-0111',
      },
    ],
  },
  {
    owner: STANDARD_USER_ID,
    fields: {
      Name: 'Riverbend Industrial Controls',
      Type: 'Partner',
      Industry: 'Manufacturing',
      Phone: '414-555-0120',
      BillingCity: 'Milwaukee',
      BillingState: 'Wisconsin',
      BillingCountry: 'United States',
      NumberOfEmployees: 60,
    },
    contacts: [
      {
        LastName: 'Sales Desk',
        Title: 'Inside Sales',
        Department: 'Sales',
        Email: 'sales@riverbend-controls.example',
        Phone: '414-555-0121',
      },
      {
        LastName: 'Receiving Dock',
        Title: 'Logistics',
        Department: 'Warehouse',
        Email: 'receiving@riverbend-controls.example',
        Phone: '414-555-0122',
      },
    ],
  },
];

/** Writes the demo accounts and contacts unless accounts were ever created (ids were issued for them). */
export async function seedDemoRecords(db: Database): Promise<void> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM id_sequence WHERE key_prefix = $1', [
    ACCOUNT_PREFIX,
  ]);
  if (rows[0].n > 0) return;
  await db.transaction(async (tx) => {
    let contactSequence = 0;
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const at = new Date(EPOCH + index * 3_600_000).toISOString();
      const accountId = makeId(ACCOUNT_PREFIX, index + 1);
      const insert = (id: string, object: string, fields: Record<string, unknown>) =>
        tx.query(
          `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
           VALUES ($1, $2, $3, $4::jsonb, $5, $6, $5, $6, $5)`,
          [id, object, MASTER_RECORD_TYPE_ID, JSON.stringify(fields), at, account.owner],
        );
      await insert(accountId, 'Account', { ...account.fields, OwnerId: account.owner });
      for (const contact of account.contacts) {
        contactSequence += 1;
        await insert(makeId(CONTACT_PREFIX, contactSequence), 'Contact', {
          FirstName: null,
          ...contact,
          Name: contact.LastName,
          AccountId: accountId,
          DoNotCall: false,
          OwnerId: account.owner,
        });
      }
    }
    await tx.query('INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, $2), ($3, $4)', [
      ACCOUNT_PREFIX,
      DEMO_ACCOUNTS.length,
      CONTACT_PREFIX,
      contactSequence,
    ]);
  });
}
