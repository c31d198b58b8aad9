/**
 * The dump that `npm run backup` writes and `npm run restore` loads: JSON lines, the same from PGlite and from
 * PostgreSQL, so that one file restores into either.
 *
 *   {"format":"contact-us-storefront-dump","version":1,"migration":"019_…","createdAt":"…","source":"pglite","tables":{"sobject":8,…}}
 *   {"table":"sobject","columns":["api_name","key_prefix","definition","updated_at"]}
 *   {"api_name":"Account","key_prefix":"001",…}          one line per row, as the database's row_to_json gives it
 *   …
 *
 * The header names the last migration the rows were written under and counts each table's rows. The tables
 * follow in the order they load in, every table after those it references, each opened by its own line and
 * followed by exactly as many rows as the header counts. Pure functions here; reading and loading are in
 * dump.ts and restore.ts.
 */

export const DUMP_FORMAT = 'contact-us-storefront-dump';
export const DUMP_VERSION = 1;

export interface DumpHeader {
  format: typeof DUMP_FORMAT;
  version: number;
  /** The last migration applied to the database dumped: its rows load into the schema as it stood then. */
  migration: string;
  createdAt: string;
  source: 'pglite' | 'postgres';
  /** Each table's row count, in the order the tables follow. */
  tables: Record<string, number>;
}

export interface TableSection {
  table: string;
  /** The columns each row carries; generated ones are left out (the target computes them). */
  columns: string[];
}

/**
 * Tables the migrations create that a dump leaves out. schema_migration is bookkeeping: a restore runs the
 * migrations itself. contact_us_locator_count is kept by triggers on record (migration 005) and is rebuilt
 * as the records load. list_view_index names the indexes the server made on record for the list views
 * (server/platform/lists/load.ts); the target has none of them until its server starts and makes them, which
 * it does only for those the table does not name. place and place_source hold the country data's
 * places (migration 026), which the target's server loads at its start.
 */
export const NOT_DUMPED: ReadonlySet<string> = new Set([
  'schema_migration',
  'contact_us_locator_count',
  'list_view_index',
  'place',
  'place_source',
]);

/**
 * Triggers a restore turns off while it loads a table (in its transaction). record_search_document_write
 * (migration 013) would write each record's search document anew from sobject_field; the words' positions it
 * gives, which ts_rank weighs, follow the order in which sobject_field's rows happen to be stored (its
 * string_agg has no ORDER BY), which a load does not keep. The documents load as they were instead. The
 * field history triggers (migration 027) would write a "created" row for every record loaded: the history
 * loads as it was.
 */
export const TRIGGERS_OFF_WHILE_LOADING: Readonly<Record<string, readonly string[]>> = {
  record: [
    'record_search_document_write',
    'record_history_inserted',
    'record_history_updated',
    'record_history_deleted',
  ],
};

/**
 * Load-order needs that no foreign key states: inserting an object's fields rewrites the search documents of
 * its records (record_search_document_reindex, migration 013), so records load after sobject_field, when that
 * trigger finds none.
 */
const LOADS_AFTER: Readonly<Record<string, readonly string[]>> = { record: ['sobject_field'] };

/** A reference of one table to another (a foreign key), for loadOrder. */
interface TableReference {
  table: string;
  references: string;
}

/**
 * The tables in an order where each comes after every table it references (foreign keys, and LOADS_AFTER),
 * otherwise by name. A table's references to itself, and to tables not listed, are ignored; a cycle cannot be
 * loaded table by table and is an error.
 */
export function loadOrder(tables: readonly string[], references: readonly TableReference[]): string[] {
  const listed = new Set(tables);
  const needs = new Map(tables.map((table) => [table, new Set<string>()]));
  const extra = Object.entries(LOADS_AFTER).flatMap(([table, after]) =>
    after.map((references) => ({ table, references })),
  );
  for (const { table, references: target } of [...references, ...extra]) {
    if (table !== target && listed.has(table) && listed.has(target)) needs.get(table)!.add(target);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  const remaining = [...listed].sort();
  while (remaining.length > 0) {
    const next = remaining.findIndex((table) => [...needs.get(table)!].every((target) => placed.has(target)));
    if (next === -1)
      throw new Error(
        `The tables ${remaining.join(', ')} reference each other in a cycle: they cannot be loaded one after another`,
      );
    const [table] = remaining.splice(next, 1);
    order.push(table);
    placed.add(table);
  }
  return order;
}

export class DumpFormatError extends Error {}

/** The header of a dump (its first line), checked. */
export function parseHeader(line: string | undefined): DumpHeader {
  let header: Partial<DumpHeader>;
  try {
    header = JSON.parse(line ?? '') as Partial<DumpHeader>;
  } catch {
    throw new DumpFormatError('This is not a dump of the storefront (its first line is not JSON)');
  }
  if (header?.format !== DUMP_FORMAT)
    throw new DumpFormatError('This is not a dump of the storefront (its header does not say so)');
  if (header.version !== DUMP_VERSION)
    throw new DumpFormatError(
      `The dump is in format version ${header.version}; this version of the storefront reads version ${DUMP_VERSION}`,
    );
  if (typeof header.migration !== 'string' || !header.migration)
    throw new DumpFormatError('The dump does not say which migration its rows were written under');
  const tables = header.tables;
  if (
    !tables ||
    typeof tables !== 'object' ||
    Object.values(tables).some((count) => !Number.isSafeInteger(count) || (count as number) < 0) ||
    Object.keys(tables).length === 0
  )
    throw new DumpFormatError('The dump header does not count the rows of its tables');
  return header as DumpHeader;
}

/** The line that opens a table's rows, checked to be the table expected next. */
export function parseSection(line: string | undefined, expected: string): TableSection {
  let section: Partial<TableSection> | undefined;
  try {
    section = JSON.parse(line ?? '') as Partial<TableSection>;
  } catch {
    section = undefined;
  }
  if (section?.table !== expected)
    throw new DumpFormatError(
      `The dump is damaged: the rows of ${expected} should begin here${line === undefined ? ', but the dump ends' : ''}`,
    );
  if (
    !Array.isArray(section.columns) ||
    section.columns.length === 0 ||
    section.columns.some((column) => typeof column !== 'string')
  )
    throw new DumpFormatError(`The dump is damaged: the columns of ${expected} are not listed`);
  return section as TableSection;
}

/**
 * Whether this code can load a dump made under the given migration: it must hold that migration, so that it
 * can build the schema the rows were written in (a dump of a newer version needs that version to restore it).
 */
export function assertMigrationKnown(migration: string, known: readonly string[]): void {
  if (!known.includes(migration))
    throw new DumpFormatError(
      `The dump was made under migration ${migration}, which this version of the storefront does not have (its last is ${known.at(-1)}): restore it with the version that made it, or a newer one`,
    );
}

/** An identifier quoted for SQL. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The lines of a text stream, without their line ends. A line split over many chunks (a row holding a large
 * file) is joined once, not grown chunk by chunk.
 */
export async function* linesOf(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending: string[] = [];
  for await (const chunk of chunks) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      pending.push(chunk.slice(start, end));
      yield pending.join('');
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.slice(start));
  }
  if (pending.length > 0) yield pending.join('');
}
