/**
 * Each user's own preferences for a list view they may see: column widths (whole pixels, -1 for the default
 * width), column wrapping, and a sort order of their own that the list's records then come in when a request
 * names none. A change merges widths and wrapping into the current ones, replaces the order, and resets a
 * property given as null; it reads the current ones under the user's preferences lock (changingPreferences).
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { PlatformError } from '../core/errors.ts';
import type { Principal } from '../core/principal.ts';
import { isSortable } from '../query/fields.ts';
import { MAX_SORT_FIELDS } from '../query/sort.ts';
import type { QueryTarget } from '../query/target.ts';
import { listContext, type ListContext } from './context.ts';
import { listReference, orderedByInfo, readablePath } from './info.ts';
import { preferencesOf, savePreferences, type ListPreferences } from './store.ts';

type ListPreferencesRepresentation = Schemas['ListPreferencesRepresentation'];
type ListPreferencesInput = Schemas['ListPreferencesInputRepresentation'];

/** The first key of the advisory locks of users' list and related-list preferences (the second: a hash of the user's id). */
const PREFERENCES_LOCK = 7265030;

/**
 * Runs a change of a user's list or related-list preferences in a transaction that holds the user's preferences
 * lock, for change to read the current preferences, merge into them and save. Two changes at once (two keys
 * pressed on a column's edge, a width and a wrapping, two tabs) would otherwise both read the same preferences,
 * and the later save would drop the earlier one's columns.
 */
export function changingPreferences<T>(
  db: Database,
  userId: string,
  change: (tx: Queryable) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PREFERENCES_LOCK, userId]);
    return change(tx);
  });
}

const invalidPreference = (message: string) => new PlatformError(400, 'INVALID_INPUT', message);

/** A preferences change: widths and wrapping merged into the current ones (null removes a column's), the order replaced. */
export interface PreferencesChange {
  columnWidths?: Record<string, number | null> | null;
  columnWrap?: Record<string, boolean | null> | null;
  orderedBy?: { fieldApiName: string; isAscending?: boolean }[] | null;
}

/**
 * The preferences after a change, of a list or a related list: every column named must be a field path the
 * caller may read on the object (kept in the metadata's spelling), every order key sortable and named once.
 */
export function changedPreferences(
  target: QueryTarget,
  objectApiName: string,
  current: ListPreferences,
  change: PreferencesChange,
): ListPreferences {
  const columnName = (name: string) => {
    const resolved = readablePath(target, name);
    if (!resolved) throw invalidPreference(`No such column '${name.slice(0, 80)}' on entity '${objectApiName}'`);
    return resolved;
  };
  const merged = <T>(
    settings: Record<string, T>,
    changed: Record<string, T | null> | null | undefined,
  ): Record<string, T> => {
    if (changed === null) return {};
    if (changed === undefined) return settings;
    const result = { ...settings };
    for (const [name, value] of Object.entries(changed)) {
      const column = columnName(name).path;
      if (value === null) delete result[column];
      else result[column] = value;
    }
    return result;
  };
  let orderedBy = current.orderedBy;
  if (change.orderedBy === null) orderedBy = [];
  else if (change.orderedBy !== undefined) {
    if (change.orderedBy.length > MAX_SORT_FIELDS)
      throw invalidPreference(`orderedBy takes at most ${MAX_SORT_FIELDS} fields`);
    orderedBy = change.orderedBy.map((key) => {
      const resolved = columnName(key.fieldApiName);
      if (!isSortable(resolved.field))
        throw new PlatformError(400, 'INVALID_FIELD', `Field '${resolved.path}' can not be sorted in a query call`);
      return { fieldApiName: resolved.path, isAscending: key.isAscending ?? true };
    });
    const names = orderedBy.map((key) => key.fieldApiName.toLowerCase());
    if (new Set(names).size !== names.length) throw invalidPreference('orderedBy names a field twice');
  }
  return {
    columnWidths: merged(current.columnWidths, change.columnWidths),
    columnWrap: merged(current.columnWrap, change.columnWrap),
    orderedBy,
  };
}

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

export async function updateListPreferences(
  db: Database,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
  input: ListPreferencesInput,
): Promise<ListPreferencesRepresentation> {
  const context = await listContext(db, principal, objectApiName, listViewApiName);
  const preferences = await changingPreferences(db, principal.userId, async (tx) => {
    const current = await preferencesOf(tx, principal.userId, context.view);
    const changed = changedPreferences(context.target, context.object.apiName, current, input);
    await savePreferences(tx, principal.userId, context.view, changed);
    return changed;
  });
  return representation(context, preferences);
}
