/**
 * The org's list views as data: metadata/list-views/<Object>.json, loaded into the database at start when a
 * file (or the object it names) changed since the last load, like the objects and layouts. A file that names
 * a field its object lacks, a filter that does not fit its field, or an id that is not a list view id stops
 * the start: a list view must not silently lose a column or a filter. The indexes list views need are derived
 * afterwards, with the related lists' (derived-indexes.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { isSortable } from '../query/fields.ts';
import { compileWhere } from '../query/where.ts';
import { shareTarget } from './access.ts';
import {
  definitionOfEntry,
  isMruList,
  LIST_VIEW_KEY_PREFIX,
  MRU_LIST_VIEW,
  SCOPES,
  type ListView,
  type ListViewFile,
} from './definitions.ts';
import { fieldAtPath, listViewWhere } from './filters.ts';

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
      if (
        entry.id !== undefined ||
        entry.filteredByInfo?.length ||
        entry.orderedByInfo?.length ||
        entry.scope !== undefined
      )
        problem(`${MRU_LIST_VIEW} has no id, filters, order or scope`);
    } else {
      const id = entry.id === undefined ? null : toId18(entry.id);
      if (!id || !id.startsWith(LIST_VIEW_KEY_PREFIX) || id !== entry.id)
        problem(`id must be an 18-character list view id (beginning ${LIST_VIEW_KEY_PREFIX})`);
    }
    const view = {
      id: null,
      objectApiName: object.apiName,
      apiName: entry.apiName,
      ownerId: null,
      definition: definitionOfEntry(entry),
    };
    if (!view.definition.label) problem('label is required');
    for (const path of view.definition.displayColumns)
      if (!fieldAtPath(org, object, path)) problem(`column ${path}: no such field`);
    for (const key of view.definition.orderedByInfo) {
      const field = fieldAtPath(org, object, key.fieldApiName)?.field;
      if (!field || !isSortable(field)) problem(`order ${key.fieldApiName}: no such sortable field`);
    }
    if (view.definition.scope !== null && !(SCOPES as readonly string[]).includes(view.definition.scope))
      problem(`scope ${view.definition.scope}: not one of ${SCOPES.join(', ')}`);
    for (const share of view.definition.listShares)
      if (!shareTarget(share)) problem(`share ${share}: no such role or group`);
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
    const { rows } = await db.query<{ hash: string }>('SELECT hash FROM list_view_source WHERE object_api_name = $1', [
      file.objectApiName,
    ]);
    if (rows[0]?.hash === hash) continue;
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM list_view WHERE object_api_name = $1 AND owner_id IS NULL', [file.objectApiName]);
      for (const view of listViewsOfFile(file)) {
        await tx.query(
          'INSERT INTO list_view (object_api_name, api_name, id, owner_id, definition) VALUES ($1, $2, $3, NULL, $4::jsonb)',
          [view.objectApiName, view.apiName, view.id, JSON.stringify(view.definition)],
        );
      }
      await tx.query(
        'INSERT INTO list_view_source (object_api_name, hash) VALUES ($1, $2) ON CONFLICT (object_api_name) DO UPDATE SET hash = EXCLUDED.hash',
        [file.objectApiName, hash],
      );
    });
    loaded.push(file.objectApiName);
  }
  return loaded;
}
