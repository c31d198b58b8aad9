/**
 * Each user's own preferences for a related list: column widths (whole pixels, -1 for the default width),
 * column wrapping, and a sort order of its own that the related records then come in when a request names
 * none. A preferences id is `ParentObject.Name`, the name being the layout's preferences name for the list
 * (`Account.RelatedContactList`) or its related list id (`Account.Contacts`). A change merges widths and
 * wrapping into the current ones (null removes a column's setting) and replaces the order.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { PlatformError } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { isSortable } from '../query/fields.ts';
import { illegalValue } from '../query/errors.ts';
import { MAX_SORT_FIELDS } from '../query/sort.ts';
import { orderedByInfo, readablePath } from '../lists/info.ts';
import { parentContext, relatedListContext, type RelatedListContext } from './context.ts';
import { relatedListIdOfPreferences, type RelatedListOrder } from './definitions.ts';
import { batchItem, MAX_BATCH_RELATED_LISTS } from './batch.ts';
import { savePreferences, sortedKeys, type RelatedListPreferences } from './store.ts';

export type RelatedListPreferencesRepresentation = Schemas['RelatedListUserPreferencesRepresentation'];

export interface PreferencesChange {
  columnWidths?: Record<string, number | null> | null;
  columnWrap?: Record<string, boolean | null> | null;
  orderedBy?: { fieldApiName: string; isAscending?: boolean }[] | null;
}

const invalidPreference = (message: string) => new PlatformError(400, 'INVALID_INPUT', message);

/** A column named by a preference: a field path of the child object the caller may read, in the metadata's spelling. */
function columnName(context: RelatedListContext, name: string): string {
  const resolved = readablePath(context.target, name);
  if (!resolved) throw invalidPreference(`No such column '${name.slice(0, 80)}' on entity '${context.child.apiName}'`);
  return resolved.path;
}

function merged<T>(context: RelatedListContext, current: Record<string, T>, change: Record<string, T | null> | null | undefined): Record<string, T> {
  if (change === null) return {};
  if (change === undefined) return current;
  const result = { ...current };
  for (const [name, value] of Object.entries(change)) {
    const column = columnName(context, name);
    if (value === null) delete result[column];
    else result[column] = value;
  }
  return result;
}

/** The caller's preferences after a change (checked: columns must exist for it, the order must be sortable). */
export function mergedPreferences(context: RelatedListContext, change: PreferencesChange): RelatedListPreferences {
  let orderedBy: RelatedListOrder[] = context.preferences.orderedBy;
  if (change.orderedBy === null) orderedBy = [];
  else if (change.orderedBy !== undefined) {
    if (change.orderedBy.length > MAX_SORT_FIELDS) throw invalidPreference(`orderedBy takes at most ${MAX_SORT_FIELDS} fields`);
    orderedBy = change.orderedBy.map((key) => {
      const resolved = readablePath(context.target, key.fieldApiName);
      if (!resolved) throw invalidPreference(`No such column '${key.fieldApiName.slice(0, 80)}' on entity '${context.child.apiName}'`);
      if (!isSortable(resolved.field)) throw new PlatformError(400, 'INVALID_FIELD', `Field '${resolved.path}' can not be sorted in a query call`);
      return { fieldApiName: resolved.path, isAscending: key.isAscending ?? true };
    });
    const names = orderedBy.map((key) => key.fieldApiName.toLowerCase());
    if (new Set(names).size !== names.length) throw invalidPreference('orderedBy names a field twice');
  }
  return {
    columnWidths: sortedKeys(merged(context, context.preferences.columnWidths, change.columnWidths)),
    columnWrap: sortedKeys(merged(context, context.preferences.columnWrap, change.columnWrap)),
    orderedBy,
  };
}

function representation(context: RelatedListContext, preferencesId: string, preferences: RelatedListPreferences): RelatedListPreferencesRepresentation {
  return {
    columnWidths: preferences.columnWidths,
    columnWrap: preferences.columnWrap,
    orderedBy: orderedByInfo({ org: context.org, object: context.child, target: context.target }, preferences.orderedBy),
    preferencesId,
  };
}

/** The related list a preferences id names, as the caller may see it; one it may not see is not found. */
async function preferencesContext(db: Queryable, principal: Principal, preferencesId: string): Promise<RelatedListContext> {
  const [parentObjectApiName, name, ...rest] = preferencesId.split('.');
  if (!parentObjectApiName || !name || rest.length > 0) throw illegalValue('preferencesId', 'give ParentObject.RelatedListName');
  const parent = await parentContext(db, principal, parentObjectApiName);
  return relatedListContext(db, parent, relatedListIdOfPreferences(parent.parent, parent.layout, name));
}

export async function getRelatedListPreferences(db: Queryable, principal: Principal, preferencesId: string): Promise<RelatedListPreferencesRepresentation> {
  const context = await preferencesContext(db, principal, preferencesId);
  return representation(context, preferencesId, context.preferences);
}

export async function getRelatedListPreferencesBatch(
  db: Queryable,
  principal: Principal,
  preferencesIds: string,
): Promise<Schemas['RelatedListPreferencesBatchRepresentation']> {
  const ids = preferencesIds
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0) throw illegalValue('preferencesIds', 'name at least one preferences id');
  if (ids.length > MAX_BATCH_RELATED_LISTS) throw illegalValue('preferencesIds', `at most ${MAX_BATCH_RELATED_LISTS} ids, not ${ids.length}`);
  const results = [];
  for (const id of ids) results.push(await batchItem(() => getRelatedListPreferences(db, principal, id)));
  return { results } as Schemas['RelatedListPreferencesBatchRepresentation'];
}

export async function updateRelatedListPreferences(
  db: Queryable,
  principal: Principal,
  preferencesId: string,
  input: Schemas['RelatedListUserPreferencesInputRepresentation'],
): Promise<RelatedListPreferencesRepresentation> {
  const context = await preferencesContext(db, principal, preferencesId);
  const preferences = mergedPreferences(context, input);
  await savePreferences(db, principal.userId, context.parent.apiName, context.definition.entry.relatedListId, preferences);
  return representation(context, preferencesId, preferences);
}
