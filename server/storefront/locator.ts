/** The contact locator's server methods (APT_ContactUsController), over the Contact Us records. */
import { ContactUsRepresentative, DefaultContact } from '../../generated/schemas.ts';
import type { Schemas } from '../../generated/types.ts';
import type { Queryable } from '../db/connection.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../platform/core/ids.ts';
import { ApexError } from './apex-error.ts';
import { CONTACT_US_OBJECT } from './demo-contacts.ts';
import { JsonText } from '../../common/json-text.ts';

/**
 * At most this many contacts come back per call (the contract's ContactsResult says the same); the next chunk
 * starts after the last Id returned. Three pages of 12, about 13 KB: the page asks for the next chunk every
 * third page, and an answer stays small enough to be computed within the cold target and served from the
 * cache at a rate close to a trivial endpoint's (120 contacts, 43 KB, halved both: npm run bench:locator).
 */
export const CONTACTS_CHUNK_SIZE = 36;

export const CARD_FIELDS = [
  'APT_Company_Name__c',
  'APT_Address_1__c',
  'APT_Address_2__c',
  'APT_City__c',
  'APT_Primary_State__c',
  'APT_UI_Country__c',
  'APT_Zip__c',
  'APT_Phone__c',
  'APT_Email__c',
] as const;
/** The fields of an answer's schema in the contract, its Id aside. */
function fieldsOf<Shape extends object>(schema: { shape: Shape }) {
  return Object.keys(schema.shape).filter((name) => name !== 'Id') as Exclude<keyof Shape & string, 'Id'>[];
}

const DEFAULT_CONTACT_FIELDS = fieldsOf(DefaultContact);

type ContactsQuery = Schemas['ContactsQuery'];
/** The arguments with brands always a list. */
type FilledContactsQuery = Required<ContactsQuery> & { brands: string[] };

type Fields = Record<string, string | boolean | null>;

function pickFields<K extends string>(id: string, fields: Fields, names: readonly K[]) {
  const picked: Record<string, string | null> = { Id: id };
  for (const name of names) picked[name] = (fields[name] as string | null | undefined) ?? null;
  return picked as { Id: string } & Record<K, string | null>;
}

export async function getDefaultContacts(db: Queryable): Promise<Schemas['DefaultContactList']> {
  const { rows } = await db.query<{ id: string; fields: Fields }>(
    // The object's name written in, not a parameter: the one plan of the named statement then uses the partial
    // index of the default contacts (contact_us_default_idx), whose predicate names it.
    `SELECT id, fields FROM record
     WHERE object_api_name = '${CONTACT_US_OBJECT}' AND (fields ->> 'APT_Default_Contact__c') = 'true'
     ORDER BY id`,
    [],
    { prepareAs: 'default_contacts' },
  );
  return rows.map((row) => ({
    ...pickFields(row.id, row.fields, DEFAULT_CONTACT_FIELDS),
    APT_Company_Name__c: String(row.fields.APT_Company_Name__c ?? ''),
  }));
}

/**
 * Each country (the controlling picklist) with its states (the dependent picklist), in the picklists' order, as
 * a JSON text: {"Country":["State",…],…}, with no spaces, as JSON.stringify writes it. Made by the database in
 * one statement: some 5,000 states, which as rows cost the server several times the database's work.
 */
export async function getDependentStatePicklistsValues(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ map: string }>(
    `WITH state AS (
       SELECT country, '[' || string_agg(to_json(s.value)::text, ',' ORDER BY s.position) || ']' AS names
       FROM picklist_value s CROSS JOIN unnest(s.valid_for) AS country
       WHERE s.object_api_name = $1 AND s.field_api_name = $3 AND s.record_type_id = $4
       GROUP BY country
     )
     SELECT '{' || COALESCE(string_agg(to_json(c.value)::text || ':' || COALESCE(state.names, '[]'), ',' ORDER BY c.position), '') || '}' AS map
     FROM picklist_value c LEFT JOIN state ON state.country = c.value
     WHERE c.object_api_name = $1 AND c.field_api_name = $2 AND c.record_type_id = $4`,
    [CONTACT_US_OBJECT, 'APT_Country__c', 'APT_Primary_State__c', MASTER_RECORD_TYPE_ID],
    { prepareAs: 'country_state_map' },
  );
  return rows[0].map;
}

/** Throws the 400 of the first argument that names no picklist value (or no id), in the order of the arguments. */
function checkQuery(query: FilledContactsQuery, found: PicklistMatch[], afterId: string | null): void {
  const of = (field: string) => found.filter((row) => row.field === field);
  if (query.country !== null && of('APT_Country__c').length === 0)
    throw new ApexError(400, `Unknown country: ${query.country}`);
  if (query.state !== null) {
    const [state] = of('APT_Primary_State__c');
    if (!state) throw new ApexError(400, `Unknown state or province: ${query.state}`);
    if (query.country !== null && !state.valid_for.includes(query.country)) {
      throw new ApexError(400, `${query.state} is not a state or province of ${query.country}`);
    }
  }
  if (query.brands.length) {
    const brands = new Set(of('APT_Brand__c').map((brand) => brand.value));
    const unknown = query.brands.filter((brand) => !brands.has(brand));
    if (unknown.length) throw new ApexError(400, `Unknown brand: ${unknown.join(', ')}`);
  }
  if (query.lastRecordId !== null && afterId === null)
    throw new ApexError(400, `Invalid lastRecordId: ${query.lastRecordId}`);
}

interface PicklistMatch {
  field: string;
  value: string;
  valid_for: string[];
}

// The card's fields as JSON, built by the database: no row of fields is parsed and re-serialized here.
const CARD_COLUMNS = CARD_FIELDS.map((name) => `r.fields ->> '${name}' AS "${name}"`).join(', ');

/**
 * Contacts matching every given filter, ordered by Id after lastRecordId, and how many match in all, as the
 * JSON text of the answer. One statement: the filters' picklist values (checked afterwards), the count (from
 * contact_us_locator_count, kept by migration 005's triggers) and the chunk (its Ids from an index-only scan,
 * then its rows by Id).
 */
export async function getContacts(db: Queryable, args: ContactsQuery): Promise<JsonText<Schemas['ContactsResult']>> {
  // brands null (or left out, which the contract makes null) is no brand filter, like an empty list.
  const query: FilledContactsQuery = {
    country: args.country ?? null,
    state: args.state ?? null,
    brands: args.brands ?? [],
    lastRecordId: args.lastRecordId ?? null,
  };
  const afterId = query.lastRecordId === null ? null : toId18(query.lastRecordId);
  const hasFilter = query.country !== null || query.state !== null || query.brands.length > 0;
  if (!hasFilter) {
    checkQuery(query, [], afterId);
    return new JsonText('{"contacts":[],"totalRecords":0}');
  }
  const params: unknown[] = [CONTACT_US_OBJECT, MASTER_RECORD_TYPE_ID, query.country, query.state, query.brands];
  // The filters on the record table name the object as a literal, so that the planner takes its partial indexes.
  const onRecord = [`object_api_name = '${CONTACT_US_OBJECT}'`];
  const onCount: string[] = [];
  if (query.country !== null) {
    onRecord.push('contact_us_country = $3');
    onCount.push('country = $3');
  }
  if (query.state !== null) {
    onRecord.push('contact_us_state = $4');
    onCount.push('state = $4');
  }
  if (query.brands.length) {
    onRecord.push('contact_us_brands && $5::text[]');
    onCount.push('brands && $5::text[]');
  }
  if (afterId !== null) onRecord.push(`id > $${params.push(afterId)}`);
  const { rows } = await db.query<{ found: PicklistMatch[] | null; total: number; contacts: string }>(
    `SELECT
       (SELECT json_agg(json_build_object('field', field_api_name, 'value', value, 'valid_for', valid_for))
        FROM picklist_value WHERE object_api_name = $1 AND record_type_id = $2 AND (
          (field_api_name = 'APT_Country__c' AND value = $3) OR
          (field_api_name = 'APT_Primary_State__c' AND value = $4) OR
          (field_api_name = 'APT_Brand__c' AND value = ANY ($5::text[])))) AS found,
       (SELECT coalesce(sum(n), 0)::int FROM contact_us_locator_count WHERE ${onCount.join(' AND ')}) AS total,
       (SELECT coalesce(string_agg(row_to_json(card)::text, ',' ORDER BY card."Id"), '')
        FROM (SELECT r.id AS "Id", ${CARD_COLUMNS}
              FROM (SELECT id FROM record WHERE ${onRecord.join(' AND ')} ORDER BY id LIMIT ${CONTACTS_CHUNK_SIZE}) AS chunk
              JOIN record r ON r.id = chunk.id) AS card) AS contacts`,
    params,
    // With both country and state, one plan suits every value (the index on country, state and Id), and
    // planning this statement costs as much as running it.
    query.country !== null && query.state !== null
      ? { prepareAs: `getContacts_${query.brands.length ? 'b' : ''}${afterId ? 'a' : ''}` }
      : undefined,
  );
  const [{ found, total, contacts }] = rows;
  checkQuery(query, found ?? [], afterId);
  return new JsonText(`{"contacts":[${contacts}],"totalRecords":${total}}`);
}

const REPRESENTATIVE_FIELDS = fieldsOf(ContactUsRepresentative);

/**
 * One representative by its Id (15 or 18 characters), for its own page: the card's fields, its country's
 * picklist value and its brands. An Id that is not one is a 400, as getContacts answers an invalid
 * lastRecordId; an Id that names no Contact Us record (none, or a record of another object) a 404.
 */
export async function getContact(db: Queryable, recordId: string): Promise<Schemas['ContactUsRepresentative']> {
  const id = toId18(recordId);
  if (id === null) throw new ApexError(400, `Invalid recordId: ${recordId}`);
  const { rows } = await db.query<{ fields: Fields }>(
    `SELECT fields FROM record WHERE id = $1 AND object_api_name = $2`,
    [id, CONTACT_US_OBJECT],
    { prepareAs: 'getContact' },
  );
  if (rows.length === 0) throw new ApexError(404, `No representative has the Id ${recordId}`);
  const picked = pickFields(id, rows[0].fields, REPRESENTATIVE_FIELDS);
  return { ...picked, APT_Company_Name__c: picked.APT_Company_Name__c ?? '' };
}
