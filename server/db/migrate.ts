/** Applies the SQL files of server/db/migrations in name order, each once, each in a transaction. */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './connection.ts';

const MIGRATIONS_DIR = resolve(import.meta.dirname, 'migrations');
// Serialises concurrent starts of several servers on one PostgreSQL database.
const MIGRATION_LOCK = 7265001;

export async function migrate(db: Database): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith('.sql'))
    .sort();
  // Most starts find every migration applied: one read says so, without a transaction per file.
  const { rows: before } = await db.query<{ version: string }>('SELECT version FROM schema_migration');
  const known = new Set(before.map((row) => row.version));
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    if (known.has(version)) continue;
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const { rows } = await tx.query('SELECT 1 FROM schema_migration WHERE version = $1', [version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(readFileSync(resolve(MIGRATIONS_DIR, file), 'utf8'))) {
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
