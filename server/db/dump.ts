/**
 * Writes a dump of the database (dump-format.ts) from one consistent snapshot: a single transaction,
 * REPEATABLE READ and READ ONLY. On PostgreSQL other sessions go on meanwhile; PGlite is one session, so its
 * other queries wait until the dump is written. Rows are made JSON by the database (row_to_json) and read
 * through a cursor, a bounded batch at a time, so that memory stays small whatever the tables hold.
 */
import type { Writable } from 'node:stream';
import type { Database, Queryable } from './connection.ts';
import { lastMigrationApplied } from './migrate.ts';
import {
  DUMP_FORMAT,
  DUMP_VERSION,
  loadOrder,
  NOT_DUMPED,
  quoteIdentifier,
  type DumpHeader,
  type TableSection,
} from './dump-format.ts';

/** Rows per fetch at most, and the bytes a fetch aims at (a row holding a file is large: fewer of those). */
const MAX_ROWS_PER_FETCH = 1000;
const BYTES_PER_FETCH = 4 * 1024 * 1024;

/** The tables of the current schema that a dump holds, in load order, with their columns. */
async function tablesToDump(tx: Queryable): Promise<TableSection[]> {
  const { rows: columns } = await tx.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
     ORDER BY c.relname, a.attnum`,
  );
  const { rows: references } = await tx.query<{ table: string; references: string }>(
    `SELECT c.relname AS table, r.relname AS references
     FROM pg_constraint f
     JOIN pg_class c ON c.oid = f.conrelid
     JOIN pg_class r ON r.oid = f.confrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE f.contype = 'f' AND n.nspname = current_schema()`,
  );
  const tables = new Map<string, string[]>();
  for (const { table, column } of columns) {
    if (NOT_DUMPED.has(table)) continue;
    if (!tables.has(table)) tables.set(table, []);
    tables.get(table)!.push(column);
  }
  return loadOrder([...tables.keys()], references).map((table) => ({ table, columns: tables.get(table)! }));
}

/**
 * The rows of a table as JSON lines, a batch (one string of whole lines) at a time, through a cursor, in the
 * order the table holds them (a sequential scan, the cheapest read of a whole table).
 */
async function* rowsOf(tx: Queryable, table: TableSection): AsyncGenerator<string> {
  const select = table.columns.map(quoteIdentifier).join(', ');
  await tx.query(
    `DECLARE dump_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS line FROM (SELECT ${select} FROM ${quoteIdentifier(table.table)}) AS t`,
  );
  let batch = 10;
  for (;;) {
    const { rows } = await tx.query<{ line: string }>(`FETCH ${batch} FROM dump_rows`);
    if (rows.length === 0) break;
    let bytes = 0;
    let text = '';
    for (const { line } of rows) {
      bytes += line.length;
      text += line + '\n';
    }
    yield text;
    batch = Math.max(1, Math.min(MAX_ROWS_PER_FETCH, Math.floor(BYTES_PER_FETCH / (bytes / rows.length))));
  }
  await tx.query('CLOSE dump_rows');
}

/** The dump's destination closed before the dump was whole (a reader gone): the dump was given up. */
export class DumpCutShortError extends Error {
  constructor() {
    super('The dump was cut short: its destination was closed');
  }
}

/**
 * Writes text to out, waiting while out's buffer is full. Fails once out is closed or broken (a client gone
 * mid-dump), which ends the dump and its transaction.
 */
async function write(out: Writable, text: string): Promise<void> {
  if (out.destroyed || out.writableEnded) throw new DumpCutShortError();
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', drained);
      out.off('close', closed);
      out.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const drained = () => settle();
    const closed = () => settle(new DumpCutShortError());
    out.on('drain', drained);
    out.on('close', closed);
    out.on('error', settle);
  });
}

/**
 * Writes a dump of the database to out and ends out; returns the dump's header. When out closes or fails
 * before the end, the transaction is rolled back and the promise rejects, leaving out as it is.
 */
export async function writeDump(db: Database, out: Writable): Promise<DumpHeader> {
  const header = await db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    // Times in UTC and bytes in hex whatever the server's settings: the same rows give the same text. A scan
    // from the table's start, not from where another scan of it is (PostgreSQL's synchronized scans).
    await tx.query(
      `SELECT set_config('TimeZone', 'UTC', true), set_config('bytea_output', 'hex', true), set_config('synchronize_seqscans', 'off', true)`,
    );
    const migration = await lastMigrationApplied(tx);
    if (!migration)
      throw new Error('The database has never been set up (no migration has run): there is nothing to back up');
    const tables = await tablesToDump(tx);
    const counts: Record<string, number> = {};
    for (const { table } of tables) {
      const { rows } = await tx.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${quoteIdentifier(table)}`);
      counts[table] = Number(rows[0].n);
    }
    const header: DumpHeader = {
      format: DUMP_FORMAT,
      version: DUMP_VERSION,
      migration,
      createdAt: new Date().toISOString(),
      source: db.kind,
      tables: counts,
    };
    await write(out, JSON.stringify(header) + '\n');
    for (const table of tables) {
      await write(out, JSON.stringify(table) + '\n');
      if (counts[table.table] === 0) continue;
      for await (const text of rowsOf(tx, table)) await write(out, text);
    }
    return header;
  });
  out.end();
  return header;
}
