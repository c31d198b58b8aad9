/**
 * How an import's rows find their records: by Id, or by the match key's fields (the user's, or the object's first
 * matching rule's), the records read in bulk, a chunk of ids or keys per statement.
 */
import type { ImportColumn } from '../../../common/import-report.ts';
import { inChunks } from '../../db/chunks.ts';
import type { Queryable } from '../../db/connection.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import type { DescribedObject } from '../core/describe.ts';
import { toId18 } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { rulesOf } from '../duplicates/rules.ts';
import { canSeeRecord } from '../records/access.ts';
import { RECORD_COLUMNS, type RecordRow } from '../records/representation.ts';
import { cellValue, displayText } from './cells.ts';
import { ImportError } from './errors.ts';
import { mappableFields } from './mapping.ts';
import { invalid, type PlanRow } from './plan-row.ts';

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
async function recordsById(q: Queryable, objectApiName: string, ids: string[]): Promise<Map<string, RecordRow>> {
  const found = new Map<string, RecordRow>();
  const chunks = await inChunks(ids, MATCH_CHUNK, async (chunk) => {
    const { rows } = await q.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[]) AND object_api_name = $2`,
      [chunk, objectApiName],
    );
    return rows;
  });
  for (const row of chunks.flat()) found.set(row.id, row);
  return found;
}

/**
 * The definitions of the record table's indexes, read once per database handle (and again after a metadata
 * change): whether a key field has an index only chooses the matching's plan, never its records, so an index
 * made since (a list view's) costs at most the faster plan until then.
 */
const recordIndexes = oncePerDatabase(async (q) => {
  const { rows } = await q.query<{ definition: string }>(
    `SELECT indexdef AS definition FROM pg_indexes WHERE tablename = 'record' AND schemaname = current_schema()`,
  );
  return rows.map((row) => row.definition);
});

/**
 * Whether the record table has an index on a field's value lower-cased, as the match key compares it (the
 * duplicate rules' e-mail fields have one, migration 014), of `indexes` (recordIndexes).
 */
function hasLowerCaseIndex(indexes: string[], field: FieldDefinition): boolean {
  const expression = `(lower((fields ->> '${field.apiName.replace(/'/g, "''")}'::text)))`;
  return indexes.some((definition) => definition.includes(expression));
}

/**
 * Reads the records whose key fields hold the keys given, compared lower-cased by the database on both sides
 * (as the duplicate rules compare), a chunk of keys per statement; by the key's JSON. When a key field has an
 * index, each key looks its records up through it (a lateral subquery, kept from being merged into a join by
 * OFFSET 0); else one join compares the chunk's keys with the object's records. As a join, the planner, which
 * cannot tell how many records a key matches, sorted every record of the object for each chunk even with an
 * index: 1.9 to 2.4 s per 5,000 keys at 1,000,000 records on PostgreSQL.
 */
async function recordsByKey(
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
  const indexes = await recordIndexes(q);
  const indexed = keyFields.some((field) => hasLowerCaseIndex(indexes, field));
  const keysWithRecords = `FROM (SELECT DISTINCT * FROM unnest(${arrays.join(', ')}) AS u(${names.join(', ')})) AS k`;
  const sql = indexed
    ? `SELECT r.*, ARRAY[${names.map((name) => `k.${name}`).join(', ')}] AS key ${keysWithRecords}
       CROSS JOIN LATERAL (
         SELECT ${columns.join(', ')} FROM record r WHERE r.object_api_name = $1 AND ${where.join(' AND ')} OFFSET 0
       ) AS r`
    : `SELECT ${columns.join(', ')}, ARRAY[${names.map((name) => `k.${name}`).join(', ')}] AS key ${keysWithRecords}
       JOIN record r ON r.object_api_name = $1 AND ${where.join(' AND ')}`;
  const chunks = await inChunks(keys, MATCH_CHUNK, async (part) => {
    const { rows } = await q.query<RecordRow & { key: string[] }>(sql, [
      object.apiName,
      ...keyFields.map((_field, position) => part.map((key) => key[position])),
    ]);
    return rows;
  });
  for (const row of chunks.flat()) {
    const text = JSON.stringify(row.key);
    found.set(text, [...(found.get(text) ?? []), row]);
  }
  return found;
}

/**
 * Matches each row to its record: by the Id in its Id column, else by its cells of the match key's fields, the
 * records read in bulk. A row is invalid when its Id names no record of the object the user may see, its key
 * is blank or finds more than one record, or an earlier row of the file has the same record (or the same key).
 * Throws INVALID_MATCH_KEY when the file has neither an Id column nor a column for each field of the key.
 */
export async function matchRows(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  columns: ImportColumn[],
  keyFields: FieldDefinition[],
  rows: PlanRow[],
): Promise<void> {
  const idColumn = columns.findIndex((column) => column.field === 'Id');
  const keyColumns = keyFields.map((field) => columns.findIndex((column) => column.field === field.apiName));
  if (idColumn < 0 && keyFields.length > 0 && keyColumns.some((index) => index < 0)) {
    const missing = keyFields.filter((_field, position) => keyColumns[position] < 0).map((field) => field.label);
    throw new ImportError(
      'INVALID_MATCH_KEY',
      `The file has no Id column, and no column for ${missing.join(', ')} of the match key: its rows could not be matched to records.`,
    );
  }
  const keyLabel = keyFields.map((field) => field.label).join(' + ');
  const wanted = new Set<string>();
  for (const row of rows) {
    const idText = idColumn < 0 ? '' : row.parsed.values[idColumn].trim();
    if (idText !== '') {
      const id = toId18(idText);
      if (!id || !id.startsWith(object.definition.keyPrefix))
        invalid(row, 'Id', `Id ${idText.slice(0, 40)} is not the Id of a ${object.definition.label} record`);
      else {
        row.report.recordId = id;
        wanted.add(id);
      }
      continue;
    }
    if (keyFields.length === 0) continue;
    const texts = keyFields.map((field, position) =>
      displayText(cellValue(field, row.parsed.values[keyColumns[position]] ?? '')),
    );
    const blank = keyFields.filter((_field, position) => texts[position].trim() === '');
    if (blank.length > 0)
      invalid(
        row,
        null,
        `The match key ${keyLabel} is blank (${blank.map((field) => field.label).join(', ')}): the row has no Id to match it by either`,
      );
    else row.key = texts;
  }
  const byId = await recordsById(q, object.apiName, [...wanted]);
  const keyed = rows.filter((row) => row.key);
  const byKey =
    keyed.length > 0
      ? await recordsByKey(
          q,
          object,
          keyFields,
          keyed.map((row) => row.key!),
        )
      : new Map<string, RecordRow[]>();
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (row.report.status === 'invalid') continue;
    let identity: string | undefined;
    if (row.report.recordId) {
      const record = byId.get(row.report.recordId);
      if (!record || !canSeeRecord(principal, object, record)) {
        invalid(row, 'Id', `No ${object.definition.label} record has the Id ${row.report.recordId}`);
        row.report.recordId = null;
        continue;
      }
      row.record = record;
      identity = record.id;
    } else if (row.key) {
      const found = (byKey.get(JSON.stringify(row.key)) ?? []).filter((record) =>
        canSeeRecord(principal, object, record),
      );
      if (found.length > 1) {
        invalid(
          row,
          null,
          `The match key ${keyLabel} finds ${found.length} records (${found
            .slice(0, 5)
            .map((record) => record.id)
            .join(', ')}): give the row an Id`,
        );
        continue;
      }
      if (found.length === 1) {
        row.record = found[0];
        row.report.recordId = found[0].id;
        identity = found[0].id;
      } else identity = `key:${JSON.stringify(row.key).toLowerCase()}`;
    }
    if (identity === undefined) continue;
    const earlier = seen.get(identity);
    if (earlier !== undefined) invalid(row, null, `A duplicate within the file (line ${earlier})`);
    else seen.set(identity, row.parsed.line);
  }
}
