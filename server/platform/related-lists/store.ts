/** Each user's own preferences for a related list of a parent object, in the database (migration 012). */
import type { Queryable } from '../../db/connection.ts';
import type { RelatedListOrder } from './definitions.ts';

export interface RelatedListPreferences {
  columnWidths: Record<string, number>;
  columnWrap: Record<string, boolean>;
  orderedBy: RelatedListOrder[];
}

export const NO_PREFERENCES: RelatedListPreferences = Object.freeze({
  columnWidths: {},
  columnWrap: {},
  orderedBy: [],
});

/**
 * A map with its keys in order: the database's jsonb keeps keys in an order of its own, so that preferences
 * read back and preferences just changed look (and hash, for eTags) the same.
 */
export function sortedKeys<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function loadPreferences(
  db: Queryable,
  userId: string,
  parentObjectApiName: string,
  relatedListId: string,
): Promise<RelatedListPreferences> {
  const { rows } = await db.query<{
    column_widths: Record<string, number>;
    column_wrap: Record<string, boolean>;
    ordered_by: RelatedListOrder[];
  }>(
    `SELECT column_widths, column_wrap, ordered_by FROM related_list_preference
     WHERE user_id = $1 AND parent_object_api_name = $2 AND related_list_id = $3`,
    [userId, parentObjectApiName, relatedListId],
    { prepareAs: 'related_list_preference' },
  );
  const row = rows[0];
  return row
    ? {
        columnWidths: sortedKeys(row.column_widths),
        columnWrap: sortedKeys(row.column_wrap),
        orderedBy: row.ordered_by,
      }
    : NO_PREFERENCES;
}

export async function savePreferences(
  db: Queryable,
  userId: string,
  parentObjectApiName: string,
  relatedListId: string,
  preferences: RelatedListPreferences,
): Promise<void> {
  await db.query(
    `INSERT INTO related_list_preference (user_id, parent_object_api_name, related_list_id, column_widths, column_wrap, ordered_by, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, now())
     ON CONFLICT (user_id, parent_object_api_name, related_list_id) DO UPDATE
       SET column_widths = EXCLUDED.column_widths, column_wrap = EXCLUDED.column_wrap, ordered_by = EXCLUDED.ordered_by, updated_at = now()`,
    [
      userId,
      parentObjectApiName,
      relatedListId,
      JSON.stringify(preferences.columnWidths),
      JSON.stringify(preferences.columnWrap),
      JSON.stringify(preferences.orderedBy),
    ],
  );
}
