/**
 * How an import's rows find their records: by Id, or by the match key's fields (the user's, or the object's first
 * matching rule's), the records read in bulk, a chunk of ids or keys per statement.
 */
import type { Queryable } from '../../db/connection.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import type { DescribedObject } from '../core/describe.ts';
import type { Principal } from '../core/principal.ts';
import { rulesOf } from '../duplicates/rules.ts';
import { RECORD_COLUMNS, type RecordRow } from '../records/representation.ts';
import { ImportError } from './errors.ts';
import { mappableFields } from './mapping.ts';

/** Ids or keys read per statement when rows are matched to records. */
export const MATCH_CHUNK = 5000;

/** The match key's fields, checked: readable fields of the object, each named once, in the org's spelling. */
export function matchKeyOf(
  principal: Principal,
  object: DescribedObject,
  given: string[] | undefined,
): FieldDefinition[] {
  const names = given ?? rulesOf(object).matchRules[0]?.fields.map((field) => field.field) ?? [];
  if (!Array.isArray(names) || names.length > 10)
    throw new ImportError('INVALID_MATCH_KEY', 'A match key is a list of at most 10 field API names.');
  const fields = mappableFields(principal, object);
  const key: FieldDefinition[] = [];
  for (const name of names) {
    const field =
      typeof name === 'string' ? fields.find((one) => one.apiName.toLowerCase() === name.toLowerCase()) : undefined;
    if (!field || field.apiName === 'Id')
      throw new ImportError(
        'INVALID_MATCH_KEY',
        `The match key names ${JSON.stringify(name).slice(0, 80)}, which is not a field of ${object.definition.label}.`,
      );
    if (!key.includes(field)) key.push(field);
  }
  return key;
}

/** Reads records by id, a chunk at a time: those of the object, by id. */
export async function recordsById(q: Queryable, objectApiName: string, ids: string[]): Promise<Map<string, RecordRow>> {
  const found = new Map<string, RecordRow>();
  for (let start = 0; start < ids.length; start += MATCH_CHUNK) {
    const { rows } = await q.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[]) AND object_api_name = $2`,
      [ids.slice(start, start + MATCH_CHUNK), objectApiName],
    );
    for (const row of rows) found.set(row.id, row);
  }
  return found;
}

/**
 * Whether the record table has an index on a field's value lower-cased, as the match key compares it (the
 * duplicate rules' e-mail fields have one, migration 014).
 */
async function hasLowerCaseIndex(q: Queryable, field: FieldDefinition): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT FROM pg_indexes WHERE tablename = 'record' AND schemaname = current_schema()
       AND indexdef LIKE '%' || $1 || '%') AS found`,
    [`(lower((fields ->> '${field.apiName.replace(/'/g, "''")}'::text)))`],
  );
  return rows[0].found;
}

/**
 * Reads the records whose key fields hold the keys given, compared lower-cased by the database on both sides
 * (as the duplicate rules compare), a chunk of keys per statement; by the key's JSON. When a key field has an
 * index, each key looks its records up through it (a lateral subquery, kept from being merged into a join by
 * OFFSET 0); else one join compares the chunk's keys with the object's records. As a join, the planner, which
 * cannot tell how many records a key matches, sorted every record of the object for each chunk even with an
 * index: 1.9 to 2.4 s per 5,000 keys at 1,000,000 records on PostgreSQL.
 */
export async function recordsByKey(
  q: Queryable,
  object: DescribedObject,
  keyFields: FieldDefinition[],
  keys: string[][],
): Promise<Map<string, RecordRow[]>> {
  const found = new Map<string, RecordRow[]>();
  const names = keyFields.map((_field, position) => `key_${position}`);
  const arrays = keyFields.map((_field, position) => `$${position + 2}::text[]`);
  const where = keyFields.map(
    (field, position) => `lower(r.fields ->> '${field.apiName.replace(/'/g, "''")}') = lower(k.${names[position]})`,
  );
  const columns = RECORD_COLUMNS.split(', ').map((column) => `r.${column}`);
  let indexed = false;
  for (const field of keyFields) indexed ||= await hasLowerCaseIndex(q, field);
  const keysWithRecords = `FROM (SELECT DISTINCT * FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')})) AS k`;
  const sql = indexed
    ? `SELECT r.*, ARRAY[${names.map((name) => `k.${name}`).join(', ')}] AS key ${keysWithRecords}
       CROSS JOIN LATERAL (
         SELECT ${columns.join(', ')} FROM record r WHERE r.object_api_name = $1 AND ${where.join(' AND ')} OFFSET 0
       ) AS r`
    : `SELECT ${columns.join(', ')}, ARRAY[${names.map((name) => `k.${name}`).join(', ')}] AS key ${keysWithRecords}
       JOIN record r ON r.object_api_name = $1 AND ${where.join(' AND ')}`;
  for (let start = 0; start < keys.length; start += MATCH_CHUNK) {
    const part = keys.slice(start, start + MATCH_CHUNK);
    const { rows } = await q.query<RecordRow & { key: string[] }>(sql, [
      object.apiName,
      ...keyFields.map((_field, position) => part.map((key) => key[position])),
    ]);
    for (const row of rows) {
      const text = JSON.stringify(row.key);
      found.set(text, [...(found.get(text) ?? []), row]);
    }
  }
  return found;
}
