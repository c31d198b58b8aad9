/**
 * The record table's indexes that the org's list views (lists/indexes.ts) and related lists
 * (related-lists/indexes.ts) need, derived from their definitions and brought in step at start, after the
 * metadata is loaded: one set of derived indexes, above both.
 */
import type { Database, Queryable } from '../db/connection.ts';
import type { OrgDescribe } from './core/describe.ts';
import { orgListViewIndexes, type IndexOptions, type IndexSpec } from './lists/indexes.ts';
import { orgListViews } from './lists/store.ts';
import { relatedListFiles } from './related-lists/definitions.ts';
import { orgRelatedListIndexes } from './related-lists/indexes.ts';

/**
 * The schema-qualified operator class of trigram indexes, installing PostgreSQL's pg_trgm (a trusted
 * extension) if it can; null where there is none (PGlite, which loads extensions only when opened with them).
 */
async function trigramOperatorClass(db: Queryable): Promise<string | null> {
  const find = async () => {
    const { rows } = await db.query<{ schema: string }>(
      `SELECT n.nspname AS schema FROM pg_opclass c JOIN pg_namespace n ON n.oid = c.opcnamespace WHERE c.opcname = 'gin_trgm_ops'`,
    );
    return rows[0] ? `${JSON.stringify(rows[0].schema)}.gin_trgm_ops` : null;
  };
  const found = await find();
  if (found) return found;
  const { rows } = await db.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'`);
  if (rows.length === 0) return null;
  // In public, so that servers whose search_path is another schema (tests) all find it there.
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public').catch(() => undefined);
  return find();
}

// Serialises the index changes of several servers starting at once on one PostgreSQL database.
const INDEX_LOCK = 7265010;

/**
 * Creates the indexes the org's list views and related lists need and drops those they no longer need (only
 * indexes this module made: they are listed in list_view_index), in one transaction. Returns the names created.
 */
export async function syncDerivedIndexes(db: Database, org: OrgDescribe): Promise<string[]> {
  const options: IndexOptions = { trigramOperatorClass: await trigramOperatorClass(db) };
  const byName = new Map<string, IndexSpec>();
  for (const index of [
    ...orgListViewIndexes(org, await orgListViews(db), options),
    ...orgRelatedListIndexes(org, relatedListFiles().values()),
  ])
    byName.set(index.name, index);
  const wanted = [...byName.values()];
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [INDEX_LOCK]);
    const { rows } = await tx.query<{ name: string }>('SELECT name FROM list_view_index');
    const existing = new Set(rows.map((row) => row.name));
    const wantedNames = new Set(wanted.map((index) => index.name));
    for (const name of existing) {
      if (wantedNames.has(name)) continue;
      await tx.query(`DROP INDEX IF EXISTS ${name}`);
      await tx.query('DELETE FROM list_view_index WHERE name = $1', [name]);
    }
    const missing: IndexSpec[] = wanted.filter((index) => !existing.has(index.name));
    for (const index of missing) {
      await tx.query(`CREATE INDEX IF NOT EXISTS ${index.name} ON record ${index.definition}`);
      await tx.query('INSERT INTO list_view_index (name, object_api_name, definition) VALUES ($1, $2, $3)', [
        index.name,
        index.objectApiName,
        index.definition,
      ]);
    }
    return missing;
  });
  // Statistics of the new index expressions, so that the planner can weigh them at once.
  if (created.length > 0) await db.query('ANALYZE record');
  return created.map((index) => index.name);
}
