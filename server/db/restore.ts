/**
 * Loads a dump (dump-format.ts) into an empty database, PGlite or PostgreSQL: the migrations up to the dump's
 * build the schema its rows were written in; the rows load in one transaction, in batches that the database
 * itself turns from JSON into each column's type (json_populate_recordset: bytea from hex, jsonb, timestamptz,
 * arrays); the row count of every table is checked against the header before that transaction commits; then
 * the later migrations run over the rows. Triggers fire as the rows load, but for those that would rewrite
 * what the rows carry (TRIGGERS_OFF_WHILE_LOADING): they fill what the dump leaves out (the locator's counts)
 * and notify, which no server hears, since an empty database has none.
 */
import type { Database, Queryable } from './connection.ts';
import {
  assertMigrationKnown,
  DumpFormatError,
  parseHeader,
  parseSection,
  quoteIdentifier,
  TRIGGERS_OFF_WHILE_LOADING,
  type DumpHeader,
  type TableSection,
} from './dump-format.ts';
import { lastMigrationApplied, migrate, migrationVersions } from './migrate.ts';

/** Rows per INSERT at most, and the bytes of JSON after which a batch is sent whatever its length. */
const MAX_ROWS_PER_INSERT = 1000;
const BYTES_PER_INSERT = 4 * 1024 * 1024;

/** The target holds data, or a newer schema than the dump's: nothing was changed. */
export class RestoreRefusedError extends Error {}

interface RestoreResult {
  header: DumpHeader;
  /** Each table's row count in the target once loaded: equal to the header's. */
  counts: Record<string, number>;
}

/** Refuses a target that has rows in any table, or a schema migrated past the dump's. */
async function assertRestorable(db: Database, header: DumpHeader): Promise<void> {
  const { rows: tables } = await db.query<{ table: string }>(
    `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> 'schema_migration' ORDER BY 1`,
  );
  const holding: string[] = [];
  for (const { table } of tables) {
    const { rows } = await db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT FROM ${quoteIdentifier(table)}) AS found`,
    );
    if (rows[0].found) holding.push(table);
  }
  if (holding.length > 0)
    throw new RestoreRefusedError(
      `The target is not empty (rows in ${holding.join(', ')}). A restore loads only into an empty database: nothing was changed.`,
    );
  const applied = await lastMigrationApplied(db);
  if (applied && applied > header.migration)
    throw new RestoreRefusedError(
      `The target's schema is at migration ${applied}, past the dump's (${header.migration}); restore into a database that was never set up: nothing was changed.`,
    );
}

async function countRows(tx: Queryable, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await tx.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${quoteIdentifier(table)}`);
    counts[table] = Number(rows[0].n);
  }
  return counts;
}

/**
 * Moves the sequences of serial and identity columns of the tables loaded past the largest value loaded, so
 * that the next row the application inserts does not take a loaded row's value. (The schema has none today:
 * record ids come from id_sequence, a table the dump carries.) The sequence of history rows' ids is moved past
 * the history ids loaded.
 */
async function advanceSequences(tx: Queryable, tables: string[]): Promise<void> {
  const { rows } = await tx.query<{ table: string; column: string; sequence: string }>(
    `SELECT * FROM (
       SELECT c.relname AS table, a.attname AS column,
              pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname) AS sequence
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
     ) AS owned WHERE sequence IS NOT NULL`,
  );
  for (const { table, column, sequence } of rows) {
    if (!tables.includes(table)) continue;
    await tx.query(
      `SELECT setval($1, max(${quoteIdentifier(column)})) FROM ${quoteIdentifier(table)} HAVING max(${quoteIdentifier(column)}) IS NOT NULL`,
      [sequence],
    );
  }
  // History rows' ids come from a sequence of their own (migration 027), which no column owns.
  const { rows: history } = await tx.query<{ found: boolean }>(
    `SELECT to_regproc('advance_record_history_sequence') IS NOT NULL AS found`,
  );
  if (history[0].found && tables.includes('record')) await tx.query('SELECT advance_record_history_sequence()');
}

/**
 * Loads the rows of one table, which follow its section line, in batches; the triggers that would rewrite what
 * they carry are off meanwhile (only those the schema has at the dump's migration: an older one may lack them).
 */
async function loadTable(
  tx: Queryable,
  schema: string,
  section: TableSection,
  expected: number,
  next: () => Promise<string | undefined>,
): Promise<void> {
  const table = quoteIdentifier(section.table);
  const columns = section.columns.map(quoteIdentifier).join(', ');
  // The row type named with its schema: `record` alone is PostgreSQL's pseudo-type of any row.
  const insert = `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::${schema}.${table}, $1::json)`;
  const { rows: triggers } = await tx.query<{ name: string }>(
    `SELECT tgname AS name FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname = ANY($2::text[])`,
    [`${schema}.${table}`, TRIGGERS_OFF_WHILE_LOADING[section.table] ?? []],
  );
  for (const { name } of triggers) await tx.query(`ALTER TABLE ${table} DISABLE TRIGGER ${quoteIdentifier(name)}`);
  let batch: string[] = [];
  let bytes = 0;
  const send = async () => {
    try {
      await tx.query(insert, [`[${batch.join(',')}]`]);
    } catch (error) {
      throw new Error(`Loading the rows of ${section.table} failed: ${(error as Error).message}`, { cause: error });
    }
    batch = [];
    bytes = 0;
  };
  for (let read = 0; read < expected; read++) {
    const line = await next();
    if (line === undefined)
      throw new DumpFormatError(
        `The dump ends early, in the rows of ${section.table} (${read} of ${expected}): it was cut short`,
      );
    batch.push(line);
    bytes += line.length;
    if (batch.length >= MAX_ROWS_PER_INSERT || bytes >= BYTES_PER_INSERT) await send();
  }
  if (batch.length > 0) await send();
  for (const { name } of triggers) await tx.query(`ALTER TABLE ${table} ENABLE TRIGGER ${quoteIdentifier(name)}`);
}

/**
 * Restores the dump whose lines are given into db, which must be empty; returns the header and the counts.
 * db is opened as found (db/open.ts: openDatabaseAsFound): the restore migrates it. log hears of each table loaded.
 */
export async function restoreDump(
  db: Database,
  lines: AsyncIterable<string>,
  log: (message: string) => void = () => {},
): Promise<RestoreResult> {
  const iterator = lines[Symbol.asyncIterator]();
  const next = async () => {
    const line = await iterator.next();
    return line.done ? undefined : line.value;
  };
  const header = parseHeader(await next());
  assertMigrationKnown(header.migration, migrationVersions());
  await assertRestorable(db, header);
  await migrate(db, { until: header.migration });
  const { rows } = await db.query<{ schema: string }>('SELECT current_schema() AS schema');
  const schema = quoteIdentifier(rows[0].schema);
  const tables = Object.keys(header.tables);
  const counts = await db.transaction(async (tx) => {
    for (const table of tables) {
      await loadTable(tx, schema, parseSection(await next(), table), header.tables[table], next);
      log(`${table}: ${header.tables[table]} rows`);
    }
    if ((await next()) !== undefined)
      throw new DumpFormatError("The dump goes on past its last table's rows: it is damaged");
    const loaded = await countRows(tx, tables);
    const wrong = tables.filter((table) => loaded[table] !== header.tables[table]);
    if (wrong.length > 0)
      throw new Error(
        `Row counts differ from the dump's in ${wrong.map((table) => `${table} (${loaded[table]}, not ${header.tables[table]})`).join(', ')}`,
      );
    await advanceSequences(tx, tables);
    return loaded;
  });
  await migrate(db);
  // Statistics for the planner at once (PGlite has no autovacuum; PostgreSQL's comes later).
  await db.exec(`ANALYZE ${tables.map(quoteIdentifier).join(', ')}`);
  return { header, counts };
}
