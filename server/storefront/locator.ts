/** The contact locator's server methods (APT_ContactUsController), over the Contact Us records. */
import type { Queryable } from '../db/connection.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../platform/ids.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';

/** At most this many contacts come back per call; the next chunk starts after the last Id returned. */
export const CONTACTS_CHUNK_SIZE = 1200;

const CARD_FIELDS = ['APT_Company_Name__c', 'APT_Address_1__c', 'APT_Address_2__c', 'APT_City__c', 'APT_Primary_State__c', 'APT_UI_Country__c', 'APT_Zip__c', 'APT_Phone__c', 'APT_Email__c'] as const;
const DEFAULT_CONTACT_FIELDS = ['APT_Company_Name__c', 'APT_Address_1__c', 'APT_Address_2__c', 'APT_Primary_State__c', 'APT_Country__c', 'APT_Zip__c', 'APT_Phone__c'] as const;

export interface ContactsQuery {
  country: string | null;
  state: string | null;
  brands: string[];
  lastRecordId: string | null;
}

type Fields = Record<string, string | boolean | null>;

function pickFields<K extends string>(id: string, fields: Fields, names: readonly K[]) {
  const picked: Record<string, string | null> = { Id: id };
  for (const name of names) picked[name] = (fields[name] as string | null | undefined) ?? null;
  return picked as { Id: string } & Record<K, string | null>;
}

export async function getDefaultContacts(db: Queryable) {
  const { rows } = await db.query<{ id: string; fields: Fields }>(
    `SELECT id, fields FROM record
     WHERE object_api_name = $1 AND (fields ->> 'APT_Default_Contact__c') = 'true'
     ORDER BY id`,
    [CONTACT_US_OBJECT],
  );
  return rows.map((row) => ({ ...pickFields(row.id, row.fields, DEFAULT_CONTACT_FIELDS), APT_Company_Name__c: String(row.fields.APT_Company_Name__c ?? '') }));
}

async function picklist(db: Queryable, field: string) {
  const { rows } = await db.query<{ value: string; valid_for: string[] }>(
    `SELECT value, valid_for FROM picklist_value
     WHERE object_api_name = $1 AND field_api_name = $2 AND record_type_id = $3 ORDER BY position`,
    [CONTACT_US_OBJECT, field, MASTER_RECORD_TYPE_ID],
  );
  return rows;
}

/** Each country (the controlling picklist) with its states (the dependent picklist), as a JSON text. */
export async function getDependentStatePicklistsValues(db: Queryable): Promise<string> {
  const countries = await picklist(db, 'APT_Country__c');
  const states = await picklist(db, 'APT_Primary_State__c');
  const map: Record<string, string[]> = Object.fromEntries(countries.map((country) => [country.value, []]));
  for (const state of states) for (const country of state.valid_for) map[country]?.push(state.value);
  return JSON.stringify(map);
}

async function checkQuery(db: Queryable, query: ContactsQuery): Promise<string | null> {
  if (query.country !== null) {
    const countries = await picklist(db, 'APT_Country__c');
    if (!countries.some((country) => country.value === query.country)) throw new ApexError(400, `Unknown country: ${query.country}`);
  }
  if (query.state !== null) {
    const state = (await picklist(db, 'APT_Primary_State__c')).find((candidate) => candidate.value === query.state);
    if (!state) throw new ApexError(400, `Unknown state or province: ${query.state}`);
    if (query.country !== null && !state.valid_for.includes(query.country)) {
      throw new ApexError(400, `${query.state} is not a state or province of ${query.country}`);
    }
  }
  if (query.brands.length) {
    const brands = new Set((await picklist(db, 'APT_Brand__c')).map((brand) => brand.value));
    const unknown = query.brands.filter((brand) => !brands.has(brand));
    if (unknown.length) throw new ApexError(400, `Unknown brand: ${unknown.join(', ')}`);
  }
  if (query.lastRecordId === null) return null;
  const id = toId18(query.lastRecordId);
  if (!id) throw new ApexError(400, `Invalid lastRecordId: ${query.lastRecordId}`);
  return id;
}

/** Contacts matching every given filter, ordered by Id after lastRecordId, and how many match in all. */
export async function getContacts(db: Queryable, query: ContactsQuery) {
  const afterId = await checkQuery(db, query);
  if (query.country === null && query.state === null && query.brands.length === 0) return { contacts: [], totalRecords: 0 };
  const params: unknown[] = [CONTACT_US_OBJECT];
  const conditions = ['object_api_name = $1'];
  if (query.country !== null) conditions.push(`(fields ->> 'APT_Country__c') = $${params.push(query.country)}`);
  if (query.state !== null) conditions.push(`(fields ->> 'APT_Primary_State__c') = $${params.push(query.state)}`);
  if (query.brands.length) conditions.push(`string_to_array(fields ->> 'APT_Brand__c', ';') && $${params.push(query.brands)}::text[]`);
  const where = conditions.join(' AND ');
  const total = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM record WHERE ${where}`, params);
  const pageParams = [...params];
  const after = afterId === null ? '' : ` AND id > $${pageParams.push(afterId)}`;
  const { rows } = await db.query<{ id: string; fields: Fields }>(
    `SELECT id, fields FROM record WHERE ${where}${after} ORDER BY id LIMIT ${CONTACTS_CHUNK_SIZE}`,
    pageParams,
  );
  return { contacts: rows.map((row) => pickFields(row.id, row.fields, CARD_FIELDS)), totalRecords: total.rows[0].total };
}
