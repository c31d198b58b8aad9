/**
 * The org's list views as data: metadata/list-views/<Object>.json, loaded into the database at start when a
 * file (or the object it names) changed since the last load, like the objects and layouts. A file that names
 * a field its object lacks, a filter that does not fit its field, or an id that is not a list view id stops
 * the start: a list view must not silently lose a column or a filter. Then the record table's indexes are
 * brought in step with what the org's list views (indexes.ts) and related lists (related-lists/indexes.ts) need.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database, Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../describe.ts';
import { PlatformError } from '../errors.ts';
import { toId18 } from '../ids.ts';
import { isSortable } from '../query/fields.ts';
import { compileWhere } from '../query/where.ts';
import { shareTarget } from './access.ts';
import { definitionOfEntry, isMruList, LIST_VIEW_KEY_PREFIX, MRU_LIST_VIEW, SCOPES, type ListView, type ListViewFile } from './definitions.ts';
import { fieldAtPath, listViewWhere } from './filters.ts';
import { orgListViewIndexes, type IndexOptions, type IndexSpec } from './indexes.ts';
import { orgListViews } from './store.ts';
import { relatedListFiles } from '../related-lists/definitions.ts';
import { orgRelatedListIndexes } from '../related-lists/indexes.ts';

const LIST_VIEWS_DIR = resolve(import.meta.dirname, '../metadata/list-views');

/** What a list view may name, checked as the org (every field readable, every record visible). */
const orgAccess = { canReadObject: () => true, canReadField: () => true, visibleRows: () => null };

function readListViewFiles(): ListViewFile[] {
  if (!existsSync(LIST_VIEWS_DIR)) return [];
  return readdirSync(LIST_VIEWS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(resolve(LIST_VIEWS_DIR, name), 'utf8')) as ListViewFile);
}

/** The list views of a file, as stored: the org's (no owner). */
export function listViewsOfFile(file: ListViewFile): ListView[] {
  return file.listViews.map((entry) => ({
    id: entry.id === undefined ? null : toId18(entry.id),
    objectApiName: file.objectApiName,
    apiName: entry.apiName,
    ownerId: null,
    definition: definitionOfEntry(entry),
  }));
}

/** What is wrong with a file's list views, for its object; empty when nothing is. */
export function listViewFileProblems(org: OrgDescribe, object: DescribedObject, file: ListViewFile): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  file.listViews.forEach((entry, index) => {
    const where = `${entry.apiName ?? `list view ${index + 1}`}`;
    const problem = (text: string) => problems.push(`${where}: ${text}`);
    if (!/^(?:[A-Za-z][A-Za-z0-9_]{0,79}|__Recent)$/.test(entry.apiName ?? ''))
      problem('apiName must be a letter then up to 79 letters, digits or _ (or __Recent)');
    if (names.has(entry.apiName?.toLowerCase())) problem('apiName is used twice');
    names.add(entry.apiName?.toLowerCase());
    if (isMruList(entry)) {
      if (entry.id !== undefined || entry.filteredByInfo?.length || entry.orderedByInfo?.length || entry.scope !== undefined)
        problem(`${MRU_LIST_VIEW} has no id, filters, order or scope`);
    } else {
      const id = entry.id === undefined ? null : toId18(entry.id);
      if (!id || !id.startsWith(LIST_VIEW_KEY_PREFIX) || id !== entry.id)
        problem(`id must be an 18-character list view id (beginning ${LIST_VIEW_KEY_PREFIX})`);
    }
    const view = { id: null, objectApiName: object.apiName, apiName: entry.apiName, ownerId: null, definition: definitionOfEntry(entry) };
    if (!view.definition.label) problem('label is required');
    for (const path of view.definition.displayColumns) if (!fieldAtPath(org, object, path)) problem(`column ${path}: no such field`);
    for (const key of view.definition.orderedByInfo) {
      const field = fieldAtPath(org, object, key.fieldApiName)?.field;
      if (!field || !isSortable(field)) problem(`order ${key.fieldApiName}: no such sortable field`);
    }
    if (view.definition.scope !== null && !(SCOPES as readonly string[]).includes(view.definition.scope))
      problem(`scope ${view.definition.scope}: not one of ${SCOPES.join(', ')}`);
    for (const share of view.definition.listShares) if (!shareTarget(share)) problem(`share ${share}: no such role or group`);
    try {
      const filter = listViewWhere(org, object, view.definition.filteredByInfo, view.definition.filterLogicString);
      if (filter) compileWhere(filter, { org, object, access: orgAccess }, { now: new Date(), parameter: 'filter' });
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      problem(error.message);
    }
  });
  return problems;
}

/** Loads the files whose content (or whose object) changed since the last load. Returns the objects loaded. */
export async function loadListViews(db: Database): Promise<string[]> {
  const org = await describeOrg(db);
  const loaded: string[] = [];
  for (const file of readListViewFiles()) {
    const object = org.objects.get(file.objectApiName);
    if (!object) throw new Error(`List views of ${file.objectApiName}: no such object`);
    const problems = listViewFileProblems(org, object, file);
    if (problems.length > 0) throw new Error(`List views of ${file.objectApiName}:\n  ${problems.join('\n  ')}`);
    const hash = createHash('sha256')
      .update(JSON.stringify(file))
      .update(String((object.definition as { hash?: string }).hash ?? ''))
      .digest('hex');
    const { rows } = await db.query<{ hash: string }>('SELECT hash FROM list_view_source WHERE object_api_name = $1', [file.objectApiName]);
    if (rows[0]?.hash === hash) continue;
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM list_view WHERE object_api_name = $1 AND owner_id IS NULL', [file.objectApiName]);
      for (const view of listViewsOfFile(file)) {
        await tx.query('INSERT INTO list_view (object_api_name, api_name, id, owner_id, definition) VALUES ($1, $2, $3, NULL, $4::jsonb)', [
          view.objectApiName,
          view.apiName,
          view.id,
          JSON.stringify(view.definition),
        ]);
      }
      await tx.query('INSERT INTO list_view_source (object_api_name, hash) VALUES ($1, $2) ON CONFLICT (object_api_name) DO UPDATE SET hash = EXCLUDED.hash', [
        file.objectApiName,
        hash,
      ]);
    });
    loaded.push(file.objectApiName);
  }
  const indexed = await syncListViewIndexes(db, org);
  if (indexed.length > 0) loaded.push(`${indexed.length} list view indexes`);
  return loaded;
}

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
export async function syncListViewIndexes(db: Database, org: OrgDescribe): Promise<string[]> {
  const options: IndexOptions = { trigramOperatorClass: await trigramOperatorClass(db) };
  // The related lists' indexes too (related-lists/indexes.ts): one set of derived indexes, kept in step at once.
  const byName = new Map<string, IndexSpec>();
  for (const index of [...orgListViewIndexes(org, await orgListViews(db), options), ...orgRelatedListIndexes(org, relatedListFiles().values())])
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
