/**
 * Each user's own preferences for a related list: column widths (whole pixels, -1 for the default width),
 * column wrapping, and a sort order of its own that the related records then come in when a request names
 * none. A preferences id is `ParentObject.Name`, the name being the layout's preferences name for the list
 * (`Account.RelatedContactList`) or its related list id (`Account.Contacts`). A change merges widths and
 * wrapping into the current ones (null removes a column's setting) and replaces the order.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import type { Principal } from '../core/principal.ts';
import { illegalValue } from '../query/errors.ts';
import { orderedByInfo } from '../lists/info.ts';
import { changedPreferences, changingPreferences, type PreferencesChange } from '../lists/preferences.ts';
import { parentContext, relatedListContext, type RelatedListContext } from './context.ts';
import { relatedListIdOfPreferences } from './definitions.ts';
import { batchItem, MAX_BATCH_RELATED_LISTS } from './batch.ts';
import { loadPreferences, savePreferences, sortedKeys, type RelatedListPreferences } from './store.ts';

type RelatedListPreferencesRepresentation = Schemas['RelatedListUserPreferencesRepresentation'];

export type { PreferencesChange };

/**
 * Changes the caller's preferences for the related list and saves them (checked: columns must exist for it, the
 * order must be sortable), merged into the current ones read under the user's preferences lock; returns them.
 * The context's own preferences are not used: get it without them (relatedListContext's withPreferences).
 */
export function changeRelatedListPreferences(
  db: Database,
  context: RelatedListContext,
  change: PreferencesChange,
): Promise<RelatedListPreferences> {
  const { userId } = context.principal;
  const parentObjectApiName = context.parent.apiName;
  const { relatedListId } = context.definition.entry;
  return changingPreferences(db, userId, async (tx) => {
    const current = await loadPreferences(tx, userId, parentObjectApiName, relatedListId);
    const changed = changedPreferences(context.target, context.child.apiName, current, change);
    const preferences = {
      ...changed,
      columnWidths: sortedKeys(changed.columnWidths),
      columnWrap: sortedKeys(changed.columnWrap),
    };
    await savePreferences(tx, userId, parentObjectApiName, relatedListId, preferences);
    return preferences;
  });
}

function representation(
  context: RelatedListContext,
  preferencesId: string,
  preferences: RelatedListPreferences,
): RelatedListPreferencesRepresentation {
  return {
    columnWidths: preferences.columnWidths,
    columnWrap: preferences.columnWrap,
    orderedBy: orderedByInfo(
      { org: context.org, object: context.child, target: context.target },
      preferences.orderedBy,
    ),
    preferencesId,
  };
}

/**
 * The related list a preferences id names, as the caller may see it; one it may not see is not found. With
 * withPreferences false, the caller's preferences are not read (a change reads them under the lock).
 */
async function preferencesContext(
  db: Queryable,
  principal: Principal,
  preferencesId: string,
  withPreferences = true,
): Promise<RelatedListContext> {
  const [parentObjectApiName, name, ...rest] = preferencesId.split('.');
  if (!parentObjectApiName || !name || rest.length > 0)
    throw illegalValue('preferencesId', 'give ParentObject.RelatedListName');
  const parent = await parentContext(db, principal, parentObjectApiName);
  const relatedListId = relatedListIdOfPreferences(parent.parent, parent.layout, name);
  return relatedListContext(db, parent, relatedListId, withPreferences);
}

export async function getRelatedListPreferences(
  db: Queryable,
  principal: Principal,
  preferencesId: string,
): Promise<RelatedListPreferencesRepresentation> {
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
  if (ids.length > MAX_BATCH_RELATED_LISTS)
    throw illegalValue('preferencesIds', `at most ${MAX_BATCH_RELATED_LISTS} ids, not ${ids.length}`);
  const results = [];
  for (const id of ids) results.push(await batchItem(() => getRelatedListPreferences(db, principal, id)));
  return { results } as Schemas['RelatedListPreferencesBatchRepresentation'];
}

export async function updateRelatedListPreferences(
  db: Database,
  principal: Principal,
  preferencesId: string,
  input: Schemas['RelatedListUserPreferencesInputRepresentation'],
): Promise<RelatedListPreferencesRepresentation> {
  const context = await preferencesContext(db, principal, preferencesId, false);
  const preferences = await changeRelatedListPreferences(db, context, input);
  return representation(context, preferencesId, preferences);
}
