/**
 * Applies the SQL files of server/db/migrations in name order, each once, each in a transaction; with `until`,
 * only those up to that version (a restore loads a dump's rows into the schema they were dumped from, then
 * applies the later migrations to them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database, Queryable } from './connection.ts';

const MIGRATIONS_DIR = resolve(import.meta.dirname, 'migrations');
// Serialises concurrent starts of several servers on one PostgreSQL database.
const MIGRATION_LOCK = 7265001;

/** The versions of the migrations this code holds (their file names without .sql), in the order they apply. */
export function migrationVersions(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.replace(/\.sql$/, ''))
    .sort();
}

/** The last migration applied to the database, or null when none has been (a database never set up). */
export async function lastMigrationApplied(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ found: boolean }>(`SELECT to_regclass('schema_migration') IS NOT NULL AS found`);
  if (!rows[0].found) return null;
  const { rows: last } = await db.query<{ version: string | null }>(
    'SELECT max(version) AS version FROM schema_migration',
  );
  return last[0].version;
}

export async function migrate(db: Database, options: { until?: string } = {}): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const versions = migrationVersions().filter((version) => options.until === undefined || version <= options.until);
  // Most starts find every migration applied: one read says so, without a transaction per file.
  const { rows: before } = await db.query<{ version: string }>('SELECT version FROM schema_migration');
  const known = new Set(before.map((row) => row.version));
  const applied: string[] = [];
  for (const version of versions) {
    if (known.has(version)) continue;
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const { rows } = await tx.query('SELECT 1 FROM schema_migration WHERE version = $1', [version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(readFileSync(resolve(MIGRATIONS_DIR, `${version}.sql`), 'utf8'))) {
        await tx.query(statement);
      }
      await tx.query('INSERT INTO schema_migration (version) VALUES ($1)', [version]);
      return true;
    });
    if (done) applied.push(version);
  }
  return applied;
}

/** Splits a migration on the semicolons that end its statements (migrations hold no procedural code). */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}
