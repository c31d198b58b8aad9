/**
 * The compiled queries run against a real database over a record table like the product's: PGlite in
 * memory always, and the PostgreSQL server too when TEST_DATABASE_URL names one (in a throw-away schema).
 * The SQL is valid on both, and filters, sorts, searches, pages and visibility return the right rows.
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import { splitLookahead } from '../../server/platform/query/page-token.ts';
import { buildListQuery, type ListQueryInput } from '../../server/platform/query/select.ts';
import { ACCOUNT, ADMIN_ID, CONTACT, NOW, STANDARD_ID, targetOf, testAccess } from '../support/query-org.ts';

// The record table as server/db/migrations/001_org_metadata_and_records.sql creates it, without the
// foreign key to the object table this test has no use for.
const RECORD_TABLE = `
  CREATE TABLE record (
    id                  text COLLATE "C" PRIMARY KEY,
    object_api_name     text NOT NULL,
    record_type_id      text COLLATE "C",
    fields              jsonb NOT NULL,
    created_date        timestamptz NOT NULL,
    created_by_id       text COLLATE "C",
    last_modified_date  timestamptz NOT NULL,
    last_modified_by_id text COLLATE "C",
    system_modstamp     timestamptz NOT NULL
  );
  CREATE INDEX record_object_idx ON record (object_api_name, id);`;

interface TestDatabase {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
  close(): Promise<void>;
}

async function openPglite(): Promise<TestDatabase> {
  const db = new PGlite();
  await db.exec(RECORD_TABLE);
  return { query: (text, values) => db.query(text, values), close: () => db.close() };
}

async function openPostgres(url: string): Promise<TestDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const schema = `query_core_${randomBytes(6).toString('hex')}`;
  await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${RECORD_TABLE}`);
  return {
    query: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
    close: async () => {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

const DATABASES: [string, () => Promise<TestDatabase>][] = [['PGlite', openPglite]];
const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) DATABASES.push(['PostgreSQL', () => openPostgres(postgresUrl)]);

const A1 = makeId('001', 1);
const A2 = makeId('001', 2);
const A3 = makeId('001', 3);
const A4 = makeId('001', 4);
const C1 = makeId('003', 1);
const C2 = makeId('003', 2);
const C3 = makeId('003', 3);
const C4 = makeId('003', 4);

const rows: [id: string, object: string, created: string, fields: Record<string, unknown>][] = [
  [ADMIN_ID, 'User', '2024-01-01T00:00:00Z', { Name: 'Ada Admin', IsActive: true }],
  [STANDARD_ID, 'User', '2024-01-01T00:00:00Z', { Name: 'Sam Standard', IsActive: true }],
  [
    A1,
    'Account',
    '2024-05-10T09:00:00Z',
    {
      Name: 'Acme Corp',
      Industry: 'Energy',
      AnnualRevenue: 5000000,
      NumberOfEmployees: 120,
      Founded__c: '2024-05-15',
      IsPartner__c: true,
      Regions__c: 'EMEA;APAC',
      Secret__c: 'hiddenword',
      OwnerId: ADMIN_ID,
    },
  ],
  [
    A2,
    'Account',
    '2024-05-12T09:00:00Z',
    {
      Name: 'acme labs',
      Industry: 'Technology',
      AnnualRevenue: 250000,
      Founded__c: '2024-05-09',
      IsPartner__c: false,
      Regions__c: 'APAC',
      OwnerId: STANDARD_ID,
    },
  ],
  [
    A3,
    'Account',
    '2024-05-01T09:00:00Z',
    { Name: 'Beta 100% Ltd', Founded__c: '2023-01-01', Regions__c: 'LATAM;EMEA', OwnerId: ADMIN_ID },
  ],
  [
    A4,
    'Account',
    '2024-05-14T09:00:00Z',
    {
      Name: 'Gamma_Industries',
      Industry: 'Energy',
      AnnualRevenue: 999,
      Phone: '216-555-0142',
      Description: 'Switchgear and relays',
      OwnerId: STANDARD_ID,
    },
  ],
  [C1, 'Contact', '2024-05-10T09:00:00Z', { Name: 'Jo Smith', LastName: 'Smith', AccountId: A1, OwnerId: ADMIN_ID }],
  [C2, 'Contact', '2024-05-10T09:00:00Z', { Name: 'Kim Lee', LastName: 'Lee', AccountId: A2, OwnerId: STANDARD_ID }],
  [C3, 'Contact', '2024-05-10T09:00:00Z', { Name: 'Ana Ng', LastName: 'Ng', OwnerId: STANDARD_ID }],
  [C4, 'Contact', '2024-05-10T09:00:00Z', { Name: 'Luis Diaz', LastName: 'Diaz', AccountId: A3, OwnerId: ADMIN_ID }],
];

describe.each(DATABASES)('compiled queries on %s', (_name, open) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await open();
    for (const [id, object, created, fields] of rows) {
      await db.query(
        `INSERT INTO record (id, object_api_name, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
         VALUES ($1, $2, $3::jsonb, $4::timestamptz, $5, $4::timestamptz, $5, $4::timestamptz)`,
        [id, object, JSON.stringify(fields), created, ADMIN_ID],
      );
    }
  });

  afterAll(async () => {
    await db?.close();
  });

  /** The ids of the page a list request gives, in order, and the count of all matching records. */
  async function list(input: Partial<ListQueryInput>) {
    const query = buildListQuery({ target: targetOf(ACCOUNT), now: NOW, defaultPageSize: 50, ...input });
    const page = await db.query<{ id: string }>(query.rows.text, query.rows.values);
    const { rows: found, hasMore } = splitLookahead(page.rows, query.pageSize);
    const count = await db.query<{ total: number }>(query.count.text, query.count.values);
    return { ids: found.map((row) => row.id), hasMore, total: count.rows[0].total, sortBy: query.sort.sortBy };
  }

  const ids = async (input: Partial<ListQueryInput>) => (await list(input)).ids;
  const contacts = (input: Partial<ListQueryInput>) => ids({ target: targetOf(CONTACT), ...input });

  it('filters text without regard to case, with like wildcards and escapes', async () => {
    expect(await ids({ where: '{ Name: { eq: "ACME CORP" } }' })).toEqual([A1]);
    expect(await ids({ where: '{ Name: { like: "acme%" } }' })).toEqual([A1, A2]);
    expect(await ids({ where: String.raw`{ Name: { like: "%100\\%%" } }` })).toEqual([A3]);
    expect(await ids({ where: '{ Name: { like: "Gamma_I%" } }' })).toEqual([A4]);
    expect(await ids({ where: '{ Name: { in: ["acme corp", "BETA 100% LTD"] } }' })).toEqual([A1, A3]);
  });

  it('counts records without a value in ne and not, as SOQL does', async () => {
    expect(await ids({ where: '{ Industry: { ne: "Energy" } }' })).toEqual([A2, A3]);
    expect(await ids({ where: '{ not: { Industry: { eq: "Energy" } } }' })).toEqual([A2, A3]);
    expect(await ids({ where: '{ Industry: { nin: ["Energy"] } }' })).toEqual([A2, A3]);
    expect(await ids({ where: '{ Industry: { eq: null } }' })).toEqual([A3]);
  });

  it('compares numbers, checkboxes and ids by type', async () => {
    expect(await ids({ where: '{ AnnualRevenue: { gte: 1000, lt: 10000000 } }' })).toEqual([A1, A2]);
    expect(await ids({ where: '{ or: [{ Name: { like: "Beta%" } }, { AnnualRevenue: { lt: 1000 } }] }' })).toEqual([
      A3,
      A4,
    ]);
    expect(await ids({ where: '{ IsPartner__c: { eq: false } }' })).toEqual([A2, A3, A4]);
    expect(await ids({ where: `{ Id: { in: ["${A1.slice(0, 15)}", "${A4}"] } }` })).toEqual([A1, A4]);
    expect(await ids({ where: `{ OwnerId: { eq: "${STANDARD_ID}" } }` })).toEqual([A2, A4]);
  });

  it('compares dates and date-times, relative ones from the injected clock', async () => {
    expect(await ids({ where: '{ Founded__c: { eq: { literal: TODAY } } }' })).toEqual([A1]);
    expect(await ids({ where: '{ Founded__c: { gte: { literal: "LAST_N_DAYS:7" } } }' })).toEqual([A1, A2]);
    expect(await ids({ where: '{ Founded__c: { lt: { literal: THIS_YEAR } } }' })).toEqual([A3]);
    expect(await ids({ where: '{ CreatedDate: { gt: { value: "2024-05-11T00:00:00Z" } } }' })).toEqual([A2, A4]);
    expect(await ids({ where: '{ CreatedDate: { eq: "2024-05-14" } }' })).toEqual([A4]);
    expect(await ids({ where: '{ CreatedDate: { gte: { range: { last_n_days: 3 } } } }' })).toEqual([A2, A4]);
  });

  it('matches multi-select values as sets', async () => {
    expect(await ids({ where: '{ Regions__c: { includes: ["emea"] } }' })).toEqual([A1, A3]);
    expect(await ids({ where: '{ Regions__c: { includes: ["APAC;EMEA"] } }' })).toEqual([A1]);
    expect(await ids({ where: '{ Regions__c: { excludes: ["APAC"] } }' })).toEqual([A3, A4]);
    expect(await ids({ where: '{ Regions__c: { eq: "APAC;EMEA" } }' })).toEqual([A1]);
  });

  it('filters through relationships, a missing or hidden parent reading as none', async () => {
    expect(await contacts({ where: '{ Account: { Industry: { eq: "Energy" } } }' })).toEqual([C1]);
    expect(await contacts({ where: '{ Account: { Name: { ne: "Acme Corp" } } }' })).toEqual([C2, C3, C4]);
    expect(await contacts({ where: '{ Account: { Owner: { Name: { eq: "sam standard" } } } }' })).toEqual([C2]);
    const seesOwnAccounts = targetOf(CONTACT, testAccess({ ownAccountsOnly: STANDARD_ID }));
    expect(await contacts({ target: seesOwnAccounts, where: '{ Account: { Name: { like: "%" } } }' })).toEqual([C2]);
  });

  it('sorts by type with SOQL null ordering, then by Id', async () => {
    expect(await list({ sortBy: '-AnnualRevenue' })).toMatchObject({
      ids: [A1, A2, A4, A3],
      sortBy: '-AnnualRevenue,Id',
    });
    expect(await ids({ sortBy: 'AnnualRevenue' })).toEqual([A3, A4, A2, A1]);
    expect(await ids({ sortBy: 'Name' })).toEqual([A1, A2, A3, A4]);
    expect(await ids({ sortBy: 'Industry' })).toEqual([A3, A1, A4, A2]);
    expect(await ids({ sortBy: ['-Industry', '-Name'] })).toEqual([A2, A4, A1, A3]);
    expect(await contacts({ sortBy: 'Account.Name' })).toEqual([C3, C1, C2, C4]);
  });

  it('searches readable text fields with wildcards, metacharacters literal', async () => {
    expect(await ids({ searchTerm: 'acme' })).toEqual([A1, A2]);
    expect(await ids({ searchTerm: '100%' })).toEqual([A3]);
    expect(await ids({ searchTerm: 'a_i' })).toEqual([A4]);
    expect(await ids({ searchTerm: 'g?mma' })).toEqual([A4]);
    expect(await ids({ searchTerm: 'ac*labs' })).toEqual([A2]);
    expect(await ids({ searchTerm: '555-0142' })).toEqual([A4]);
    expect(await ids({ searchTerm: 'relays' })).toEqual([A4]);
    expect(await ids({ searchTerm: 'hiddenword' })).toEqual([]);
  });

  it('pages with a lookahead row and counts every match', async () => {
    expect(await list({ sortBy: 'Name', pageSize: 2 })).toMatchObject({ ids: [A1, A2], hasMore: true, total: 4 });
    expect(await list({ sortBy: 'Name', pageSize: 2, pageToken: '2' })).toMatchObject({
      ids: [A3, A4],
      hasMore: false,
      total: 4,
    });
    expect(await list({ sortBy: 'Name', pageSize: 2, pageToken: '2000' })).toMatchObject({
      ids: [],
      hasMore: false,
      total: 4,
    });
    expect(await list({ where: '{ Industry: { eq: "Energy" } }', pageSize: 1, pageToken: '1' })).toMatchObject({
      ids: [A4],
      hasMore: false,
      total: 2,
    });
  });

  /** Every id of a list read in keyset chunks of `size`, each chunk after the last row's position. */
  async function keysetIds(input: Partial<ListQueryInput>, size: number) {
    const found: string[] = [];
    let after: (string | null)[] | null = null;
    for (;;) {
      const query = buildListQuery({
        target: targetOf(ACCOUNT),
        now: NOW,
        defaultPageSize: 50,
        ...input,
        pageSize: size,
        keyset: { after },
      });
      const chunk = await db.query<Record<string, string | null>>(query.rows.text, query.rows.values);
      found.push(...chunk.rows.map((row) => row.id as string));
      if (chunk.rows.length < size) return found;
      const last = chunk.rows[chunk.rows.length - 1];
      after = query.positionColumns.map((column) => last[column]);
    }
  }

  it('reads in keyset chunks the same records in the same order as pages, nulls and ties included', async () => {
    const orders = [
      'Name',
      '-Name',
      'Industry',
      '-Industry',
      'AnnualRevenue',
      '-AnnualRevenue',
      ['-Industry', '-Name'],
      ['IsPartner__c', '-CreatedDate'],
      'Founded__c',
      '-Founded__c',
      '-Id',
    ];
    for (const sortBy of orders) {
      const expected = await ids({ sortBy });
      for (const size of [1, 2, 3])
        expect(await keysetIds({ sortBy }, size), `${String(sortBy)} by ${size}`).toEqual(expected);
    }
    const contactsByAccount = { target: targetOf(CONTACT), sortBy: '-Account.Name' };
    expect(await keysetIds(contactsByAccount, 1)).toEqual(await contacts({ sortBy: '-Account.Name' }));
    const energy = { where: '{ Industry: { eq: "Energy" } }', searchTerm: 'a' };
    expect(await keysetIds(energy, 1)).toEqual(await ids(energy));
  });

  it("shows only the caller's own records of a private object", async () => {
    expect(await list({ target: targetOf(ACCOUNT, testAccess({ ownAccountsOnly: STANDARD_ID })) })).toMatchObject({
      ids: [A2, A4],
      total: 2,
    });
  });

  it('finds nothing with hostile values, and the table is still there', async () => {
    expect(await ids({ where: `{ Name: { eq: "'); DROP TABLE record; --" } }` })).toEqual([]);
    expect(
      await ids({ where: String.raw`{ Name: { like: "x' OR '1'='1" }, Industry: { in: ["\\", "$1"] } }` }),
    ).toEqual([]);
    expect(await ids({ searchTerm: "'; DELETE FROM record; --" })).toEqual([]);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM record')).rows[0].n).toBe(rows.length);
  });
});
