/**
 * Each user's own preferences for a list view they may see: column widths (whole pixels, -1 for the default
 * width), column wrapping, and a sort order of their own that the list's records then come in when a request
 * names none. A change merges widths and wrapping into the current ones, replaces the order, and resets a
 * property given as null.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { PlatformError } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { isSortable } from '../query/fields.ts';
import { MAX_SORT_FIELDS } from '../query/sort.ts';
import { listContext, type ListContext } from './context.ts';
import { listReference, orderedByInfo, readablePath } from './info.ts';
import { savePreferences, type ListPreferences } from './store.ts';

export type ListPreferencesRepresentation = Schemas['ListPreferencesRepresentation'];
export type ListPreferencesInput = Schemas['ListPreferencesInputRepresentation'];

const invalidPreference = (message: string) => new PlatformError(400, 'INVALID_INPUT', message);

function representation(context: ListContext, preferences: ListPreferences): ListPreferencesRepresentation {
  return {
    columnWidths: preferences.columnWidths,
    columnWrap: preferences.columnWrap,
    listReference: listReference(context.view),
    orderedBy: orderedByInfo(context, preferences.orderedBy),
  };
}

export async function getListPreferences(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
): Promise<ListPreferencesRepresentation> {
  const context = await listContext(db, principal, objectApiName, listViewApiName);
  return representation(context, context.preferences);
}

/** A column named by a preference: a field path the caller may read, in the metadata's spelling. */
function columnName(context: ListContext, name: string): string {
  const resolved = readablePath(context.target, name);
  if (!resolved) throw invalidPreference(`No such column '${name.slice(0, 80)}' on entity '${context.object.apiName}'`);
  return resolved.path;
}

/** Merges a map into the current one: null removes a key's setting. */
function merged<T>(context: ListContext, current: Record<string, T>, change: Record<string, T | null> | null | undefined): Record<string, T> {
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

export async function updateListPreferences(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
  input: ListPreferencesInput,
): Promise<ListPreferencesRepresentation> {
  const context = await listContext(db, principal, objectApiName, listViewApiName);
  const current = context.preferences;
  let orderedBy = current.orderedBy;
  if (input.orderedBy === null) orderedBy = [];
  else if (input.orderedBy !== undefined) {
    if (input.orderedBy.length > MAX_SORT_FIELDS) throw invalidPreference(`orderedBy takes at most ${MAX_SORT_FIELDS} fields`);
    orderedBy = input.orderedBy.map((key) => {
      const resolved = readablePath(context.target, key.fieldApiName);
      if (!resolved) throw invalidPreference(`No such column '${key.fieldApiName.slice(0, 80)}' on entity '${context.object.apiName}'`);
      if (!isSortable(resolved.field)) throw new PlatformError(400, 'INVALID_FIELD', `Field '${resolved.path}' can not be sorted in a query call`);
      return { fieldApiName: resolved.path, isAscending: key.isAscending ?? true };
    });
    const names = orderedBy.map((key) => key.fieldApiName.toLowerCase());
    if (new Set(names).size !== names.length) throw invalidPreference('orderedBy names a field twice');
  }
  const preferences: ListPreferences = {
    columnWidths: merged(context, current.columnWidths, input.columnWidths),
    columnWrap: merged(context, current.columnWrap, input.columnWrap),
    orderedBy,
  };
  await savePreferences(db, principal.userId, context.view, preferences);
  return representation(context, preferences);
}
