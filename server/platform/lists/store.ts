/**
 * List views, list preferences and list usage in the database. List views change at run time (users create
 * and change them), so they are read at each request, by primary key or the name index (statements kept
 * prepared: their plan does not depend on the values); a list view is read together with the caller's
 * preferences for it.
 */
import type { Queryable } from '../../db/connection.ts';
import type { ListView, ListViewDefinition } from './definitions.ts';

interface ListViewRow {
  id: string | null;
  object_api_name: string;
  api_name: string;
  owner_id: string | null;
  definition: ListViewDefinition;
}

const COLUMNS = 'v.id, v.object_api_name, v.api_name, v.owner_id, v.definition';

const viewOf = (row: ListViewRow): ListView => ({
  id: row.id,
  objectApiName: row.object_api_name,
  apiName: row.api_name,
  ownerId: row.owner_id,
  definition: row.definition,
});

/** A user's own preferences for a list view: column widths and wrapping, and a sort order of their own. */
export interface ListPreferences {
  columnWidths: Record<string, number>;
  columnWrap: Record<string, boolean>;
  orderedBy: { fieldApiName: string; isAscending: boolean }[];
}

export const NO_PREFERENCES: ListPreferences = Object.freeze({ columnWidths: {}, columnWrap: {}, orderedBy: [] });

interface ListViewWithPreferences {
  view: ListView;
  preferences: ListPreferences;
}

/** The columns of list_preference; null where a list view has none (its LEFT JOIN found no row). */
interface PreferencesRow {
  column_widths: Record<string, number> | null;
  column_wrap: Record<string, boolean> | null;
  ordered_by: ListPreferences['orderedBy'] | null;
}

type RowWithPreferences = ListViewRow & PreferencesRow;

const preferencesOfRow = (row: PreferencesRow | undefined): ListPreferences =>
  !row || row.column_widths === null
    ? NO_PREFERENCES
    : { columnWidths: row.column_widths, columnWrap: row.column_wrap ?? {}, orderedBy: row.ordered_by ?? [] };

function withPreferences(row: RowWithPreferences | undefined): ListViewWithPreferences | undefined {
  return row && { view: viewOf(row), preferences: preferencesOfRow(row) };
}

const WITH_PREFERENCES = `SELECT ${COLUMNS}, p.column_widths, p.column_wrap, p.ordered_by
  FROM list_view v LEFT JOIN list_preference p
    ON p.user_id = $1 AND p.object_api_name = v.object_api_name AND p.list_view_api_name = v.api_name`;

/** The user's preferences for a list view alone (read again under the preferences lock, to change them). */
export async function preferencesOf(db: Queryable, userId: string, view: ListView): Promise<ListPreferences> {
  const { rows } = await db.query<PreferencesRow>(
    `SELECT column_widths, column_wrap, ordered_by FROM list_preference
     WHERE user_id = $1 AND object_api_name = $2 AND list_view_api_name = $3`,
    [userId, view.objectApiName, view.apiName],
  );
  return preferencesOfRow(rows[0]);
}

/** A list view of an object by API name (any case), with the user's preferences for it. */
export async function listViewNamed(
  db: Queryable,
  userId: string,
  objectApiName: string,
  apiName: string,
): Promise<ListViewWithPreferences | undefined> {
  const { rows } = await db.query<RowWithPreferences>(
    `${WITH_PREFERENCES} WHERE v.object_api_name = $2 AND lower(v.api_name) = lower($3)`,
    [userId, objectApiName, apiName],
    {
      prepareAs: 'list_view_named',
    },
  );
  return withPreferences(rows[0]);
}

/** A list view by id (18 characters), with the user's preferences for it. */
export async function listViewById(
  db: Queryable,
  userId: string,
  id: string,
): Promise<ListViewWithPreferences | undefined> {
  const { rows } = await db.query<RowWithPreferences>(`${WITH_PREFERENCES} WHERE v.id = $2`, [userId, id], {
    prepareAs: 'list_view_by_id',
  });
  return withPreferences(rows[0]);
}

/** Every list view of an object (the caller filters by visibility), with when the user last opened it. */
export async function listViewsOf(
  db: Queryable,
  userId: string,
  objectApiName: string,
): Promise<{ view: ListView; usedAt: Date | null }[]> {
  const { rows } = await db.query<ListViewRow & { used_at: Date | null }>(
    `SELECT ${COLUMNS}, u.used_at FROM list_view v LEFT JOIN list_view_usage u ON u.list_view_id = v.id AND u.user_id = $1
     WHERE v.object_api_name = $2`,
    [userId, objectApiName],
  );
  return rows.map((row) => ({ view: viewOf(row), usedAt: row.used_at === null ? null : new Date(row.used_at) }));
}

/** Every list view of the org's own (not the users'). */
export async function orgListViews(db: Queryable): Promise<ListView[]> {
  const { rows } = await db.query<ListViewRow>(
    `SELECT ${COLUMNS} FROM list_view v WHERE v.owner_id IS NULL ORDER BY v.object_api_name, v.api_name`,
  );
  return rows.map(viewOf);
}

export async function insertListView(db: Queryable, view: ListView): Promise<void> {
  await db.query(
    'INSERT INTO list_view (object_api_name, api_name, id, owner_id, definition) VALUES ($1, $2, $3, $4, $5::jsonb)',
    [view.objectApiName, view.apiName, view.id, view.ownerId, JSON.stringify(view.definition)],
  );
}

/**
 * A list view's definition as it is now, its row locked for the rest of the transaction (a change merges into
 * it); undefined when the view is gone.
 */
export async function lockedDefinition(tx: Queryable, view: ListView): Promise<ListViewDefinition | undefined> {
  const { rows } = await tx.query<{ definition: ListViewDefinition }>(
    'SELECT definition FROM list_view WHERE object_api_name = $1 AND api_name = $2 FOR UPDATE',
    [view.objectApiName, view.apiName],
  );
  return rows[0]?.definition;
}

export async function updateListViewDefinition(db: Queryable, view: ListView): Promise<void> {
  await db.query(
    'UPDATE list_view SET definition = $3::jsonb, last_modified_date = now() WHERE object_api_name = $1 AND api_name = $2',
    [view.objectApiName, view.apiName, JSON.stringify(view.definition)],
  );
}

/** Deletes a list view with everyone's preferences for it (its usage goes with it by the foreign key). */
export async function deleteListView(db: Queryable, view: ListView): Promise<void> {
  await db.query('DELETE FROM list_preference WHERE object_api_name = $1 AND list_view_api_name = $2', [
    view.objectApiName,
    view.apiName,
  ]);
  await db.query('DELETE FROM list_view WHERE object_api_name = $1 AND api_name = $2', [
    view.objectApiName,
    view.apiName,
  ]);
}

export async function savePreferences(
  db: Queryable,
  userId: string,
  view: ListView,
  preferences: ListPreferences,
): Promise<void> {
  await db.query(
    `INSERT INTO list_preference (user_id, object_api_name, list_view_api_name, column_widths, column_wrap, ordered_by, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, now())
     ON CONFLICT (user_id, object_api_name, list_view_api_name) DO UPDATE
       SET column_widths = EXCLUDED.column_widths, column_wrap = EXCLUDED.column_wrap, ordered_by = EXCLUDED.ordered_by, updated_at = now()`,
    [
      userId,
      view.objectApiName,
      view.apiName,
      JSON.stringify(preferences.columnWidths),
      JSON.stringify(preferences.columnWrap),
      JSON.stringify(preferences.orderedBy),
    ],
  );
}

/** Notes that the user opened a list view (for recentListsOnly); at most one write a minute per view and user. */
export async function noteListViewUsed(db: Queryable, userId: string, view: ListView): Promise<void> {
  if (view.id === null) return;
  await db.query(
    `INSERT INTO list_view_usage (user_id, list_view_id, used_at) VALUES ($1, $2, clock_timestamp())
     ON CONFLICT (user_id, list_view_id) DO UPDATE SET used_at = EXCLUDED.used_at
     WHERE list_view_usage.used_at < EXCLUDED.used_at - interval '1 minute'`,
    [userId, view.id],
  );
}
