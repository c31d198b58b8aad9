/**
 * The favorites resources: each signed-in user's own favorites (the favorite table), in the user's order.
 * A favorite is of a record, a list view, an object's home or a tab (a navigation item), each checked, when
 * the favorite is made, to be one the caller may see. sortOrder runs from 1 to the number of the user's
 * favorites without gaps: every write that moves it is one transaction under the user's advisory lock, so
 * that two writes of one user never interleave, and a write that is refused changes nothing. Another user's
 * favorite answers like one that does not exist.
 */
import type { Schemas } from '../../generated/types.ts';
import type { Database, Queryable } from '../db/connection.ts';
import { navItemLabel, usableNavItem } from './apps/apps.ts';
import { appMetadata } from './apps/definitions.ts';
import { describeOrg, type OrgDescribe } from './core/describe.ts';
import { notFound, PlatformError } from './core/errors.ts';
import { makeId, toId18 } from './core/ids.ts';
import { listContextById } from './lists/context.ts';
import { fieldPermissions, objectPermissions, type Principal } from './core/principal.ts';
import { canSeeRecord } from './records/access.ts';
import { fetchRows } from './records/rows.ts';
import { objectTheme } from './themes.ts';

type Favorite = Schemas['FavoriteRepresentation'];
type FavoriteCollection = Schemas['FavoriteCollectionRepresentation'];
type FavoriteInput = Schemas['FavoriteInputRepresentation'];
type FavoriteBatchInput = Schemas['FavoriteBatchCollectionInputRepresentation'];
type TargetType = Favorite['targetType'];

/** The key prefix of favorite ids. */
const FAVORITE_KEY_PREFIX = '0MV';
/** The most favorites one user may hold. */
export const MAX_FAVORITES = 200;
/** The first key of the advisory locks of users' favorites (the second is a hash of the user's id). */
const FAVORITES_LOCK = 7265020;

interface FavoriteRow {
  id: string;
  name: string;
  target: string;
  target_type: TargetType;
  object_type: string;
  sort_order: number;
  access_count: number;
  last_access_date: Date | string;
}

const COLUMNS = 'id, name, target, target_type, object_type, sort_order, access_count, last_access_date';

const invalidInput = (message: string) => new PlatformError(400, 'INVALID_INPUT', message);
const targetNotFound = (target: string) =>
  new PlatformError(
    400,
    'INVALID_CROSS_REFERENCE_KEY',
    `The favorite's target does not exist or you cannot see it: ${target}`,
  );

/** A name as given, or a 400 when it is blank. */
function checkedName(name: string, field: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidInput(`${field} must not be blank`);
  return trimmed;
}

/**
 * The favorite as the platform represents it: its stored parts, with its subtitle (its object's label) and its
 * icon (a tab's own, else its object's) from the org's metadata as it is now.
 */
function represent(org: OrgDescribe, row: FavoriteRow): Favorite {
  const object = row.object_type ? org.objects.get(row.object_type) : undefined;
  const tab =
    row.target_type === 'Tab' ? appMetadata().navItems.find((item) => item.developerName === row.target) : undefined;
  const icon = tab ? { color: tab.color, iconUrl: tab.iconUrl } : objectTheme(org, row.object_type);
  return {
    accessCount: row.access_count,
    iconColor: icon?.color ?? '',
    iconUrl: icon?.iconUrl ?? '',
    id: row.id,
    lastAccessDate: new Date(row.last_access_date).toISOString(),
    name: row.name,
    objectType: row.object_type,
    sortOrder: row.sort_order,
    subtitle: object?.definition.label ?? (row.object_type || 'Tab'),
    target: row.target,
    targetType: row.target_type,
  };
}

/** Takes the user's favorites lock for the rest of the transaction. */
async function lockFavorites(tx: Queryable, principal: Principal): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [FAVORITES_LOCK, principal.userId]);
}

/** The caller's favorite of an id (15 or 18 characters), or a 404. */
async function ownFavorite(q: Queryable, principal: Principal, favoriteId: string): Promise<FavoriteRow> {
  const id = toId18(favoriteId);
  if (!id) throw notFound();
  const { rows } = await q.query<FavoriteRow>(`SELECT ${COLUMNS} FROM favorite WHERE id = $1 AND user_id = $2`, [
    id,
    principal.userId,
  ]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

async function favoriteCount(q: Queryable, principal: Principal): Promise<number> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM favorite WHERE user_id = $1', [
    principal.userId,
  ]);
  return rows[0].n;
}

async function allFavorites(q: Queryable, principal: Principal): Promise<FavoriteRow[]> {
  const { rows } = await q.query<FavoriteRow>(
    `SELECT ${COLUMNS} FROM favorite WHERE user_id = $1 ORDER BY sort_order, id`,
    [principal.userId],
  );
  return rows;
}

/** What a favorite's target names, as the caller may see it: the target as stored, its object and its name. */
interface ResolvedTarget {
  target: string;
  objectType: string;
  name: string;
}

/** A record the caller may see, by its id. */
async function recordTarget(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  target: string,
): Promise<ResolvedTarget> {
  const id = toId18(target);
  if (!id) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${target} is not a valid record ID.`);
  const row = (await fetchRows(q, [id])).get(id);
  const object = row ? org.objects.get(row.object_api_name) : undefined;
  if (!row || !object || !canSeeRecord(principal, object, row)) throw targetNotFound(target);
  const nameField = object.definition.nameFields[0] ?? 'Name';
  const value = fieldPermissions(principal, object.apiName, nameField).read ? row.fields[nameField] : null;
  return { target: id, objectType: object.apiName, name: value === null || value === undefined ? id : String(value) };
}

/** The target of a new favorite, checked to be one the caller may see (else a 400, as for one that does not exist). */
async function resolveTarget(
  q: Queryable,
  principal: Principal,
  targetType: TargetType,
  target: string,
): Promise<ResolvedTarget> {
  const org = await describeOrg(q);
  switch (targetType) {
    case 'Record':
      return recordTarget(q, org, principal, target);
    case 'ListView': {
      const list = await listContextById(q, principal, target, 'target').catch((error: unknown) => {
        throw error instanceof PlatformError && error.status === 404 ? targetNotFound(target) : error;
      });
      return { target: list.view.id as string, objectType: list.object.apiName, name: list.view.definition.label };
    }
    case 'ObjectHome': {
      const object = org.byLowerName.get(target.toLowerCase());
      if (!object || !objectPermissions(principal, object.apiName).read) throw targetNotFound(target);
      return { target: object.apiName, objectType: object.apiName, name: object.definition.labelPlural };
    }
    case 'Tab': {
      const item = usableNavItem(principal, org, target);
      if (!item) throw targetNotFound(target);
      return { target: item.developerName, objectType: item.objectApiName ?? '', name: navItemLabel(item, org) };
    }
  }
}

async function nextFavoriteId(q: Queryable): Promise<string> {
  const { rows } = await q.query<{ last_value: string | number }>(
    `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, 1)
     ON CONFLICT (key_prefix) DO UPDATE SET last_value = id_sequence.last_value + 1 RETURNING last_value`,
    [FAVORITE_KEY_PREFIX],
  );
  return makeId(FAVORITE_KEY_PREFIX, Number(rows[0].last_value));
}

/** GET /favorites: the caller's favorites, in its order. */
export async function getFavorites(db: Queryable, principal: Principal): Promise<FavoriteCollection> {
  const rows = await allFavorites(db, principal);
  const org = await describeOrg(db);
  return { favorites: rows.map((row) => represent(org, row)) };
}

/** GET /favorites/{favoriteId}. */
export async function getFavorite(db: Queryable, principal: Principal, favoriteId: string): Promise<Favorite> {
  const row = await ownFavorite(db, principal, favoriteId);
  return represent(await describeOrg(db), row);
}

/** POST /favorites: a new favorite of the caller's, at the place asked (the others move down) or last. */
export async function createFavorite(
  db: Database,
  principal: Principal,
  input: FavoriteInput,
  now: Date,
): Promise<Favorite> {
  const { target, targetType } = input;
  if (target === undefined || targetType === undefined)
    throw invalidInput('A favorite to create needs target and targetType');
  const name = input.name === undefined ? undefined : checkedName(input.name, 'name');
  const row = await db.transaction(async (tx) => {
    await lockFavorites(tx, principal);
    const resolved = await resolveTarget(tx, principal, targetType, target);
    const count = await favoriteCount(tx, principal);
    if (count >= MAX_FAVORITES)
      throw new PlatformError(400, 'LIMIT_EXCEEDED', `You have ${MAX_FAVORITES} favorites, the most you may have`);
    const { rows: taken } = await tx.query(
      'SELECT 1 FROM favorite WHERE user_id = $1 AND target_type = $2 AND target = $3',
      [principal.userId, targetType, resolved.target],
    );
    if (taken.length) throw new PlatformError(400, 'DUPLICATE_VALUE', `${target} is one of your favorites already`);
    const sortOrder = Math.min(input.sortOrder ?? count + 1, count + 1);
    await tx.query('UPDATE favorite SET sort_order = sort_order + 1 WHERE user_id = $1 AND sort_order >= $2', [
      principal.userId,
      sortOrder,
    ]);
    const id = await nextFavoriteId(tx);
    const { rows } = await tx.query<FavoriteRow>(
      `INSERT INTO favorite (id, user_id, name, target, target_type, object_type, sort_order, access_count, last_access_date, created_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $8) RETURNING ${COLUMNS}`,
      [id, principal.userId, name ?? resolved.name, resolved.target, targetType, resolved.objectType, sortOrder, now],
    );
    return rows[0];
  });
  return represent(await describeOrg(db), row);
}

/** PATCH /favorites/{favoriteId}: a new name, a new place (the others move to make room), or both. */
export async function updateFavorite(
  db: Database,
  principal: Principal,
  favoriteId: string,
  input: FavoriteInput,
): Promise<Favorite> {
  if (input.target !== undefined || input.targetType !== undefined)
    throw invalidInput("A favorite's target and targetType cannot be changed");
  if (input.name === undefined && input.sortOrder === undefined)
    throw invalidInput('Give the favorite a new name, a new sortOrder or both');
  const name = input.name === undefined ? undefined : checkedName(input.name, 'name');
  const row = await db.transaction(async (tx) => {
    await lockFavorites(tx, principal);
    const current = await ownFavorite(tx, principal, favoriteId);
    let sortOrder = current.sort_order;
    if (input.sortOrder !== undefined) {
      sortOrder = Math.min(input.sortOrder, await favoriteCount(tx, principal));
      // Those between the old place and the new move one place towards the old.
      if (sortOrder < current.sort_order)
        await tx.query(
          'UPDATE favorite SET sort_order = sort_order + 1 WHERE user_id = $1 AND sort_order >= $2 AND sort_order < $3',
          [principal.userId, sortOrder, current.sort_order],
        );
      else if (sortOrder > current.sort_order)
        await tx.query(
          'UPDATE favorite SET sort_order = sort_order - 1 WHERE user_id = $1 AND sort_order > $2 AND sort_order <= $3',
          [principal.userId, current.sort_order, sortOrder],
        );
    }
    const { rows } = await tx.query<FavoriteRow>(
      `UPDATE favorite SET name = $2, sort_order = $3 WHERE id = $1 RETURNING ${COLUMNS}`,
      [current.id, name ?? current.name, sortOrder],
    );
    return rows[0];
  });
  return represent(await describeOrg(db), row);
}

/** DELETE /favorites/{favoriteId}: those after it move up a place. */
export async function deleteFavorite(db: Database, principal: Principal, favoriteId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockFavorites(tx, principal);
    const current = await ownFavorite(tx, principal, favoriteId);
    await tx.query('DELETE FROM favorite WHERE id = $1', [current.id]);
    await tx.query('UPDATE favorite SET sort_order = sort_order - 1 WHERE user_id = $1 AND sort_order > $2', [
      principal.userId,
      current.sort_order,
    ]);
  });
}

/**
 * PUT /favorites/batch: the favorites listed are kept, in the order listed (renamed where a name is given), and
 * the caller's others are deleted, as the platform does. All or nothing.
 */
export async function updateFavoritesBatch(
  db: Database,
  principal: Principal,
  input: FavoriteBatchInput,
): Promise<FavoriteCollection> {
  const ids: string[] = [];
  const names: (string | null)[] = [];
  for (const [index, item] of input.favorites.entries()) {
    const id = toId18(item.id);
    if (!id) throw notFound();
    if (ids.includes(id)) throw invalidInput(`The favorite ${item.id} is listed more than once`);
    ids.push(id);
    names.push(item.name === undefined ? null : checkedName(item.name, `favorites.${index}.name`));
  }
  const rows = await db.transaction(async (tx) => {
    await lockFavorites(tx, principal);
    const own = new Set((await allFavorites(tx, principal)).map((row) => row.id));
    if (ids.some((id) => !own.has(id))) throw notFound();
    await tx.query('DELETE FROM favorite WHERE user_id = $1 AND NOT (id = ANY($2::text[]))', [principal.userId, ids]);
    await tx.query(
      `UPDATE favorite SET sort_order = listed.place::int, name = COALESCE(listed.name, favorite.name)
       FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS listed (id, name, place)
       WHERE favorite.id = listed.id AND favorite.user_id = $1`,
      [principal.userId, ids, names],
    );
    return allFavorites(tx, principal);
  });
  const org = await describeOrg(db);
  return { favorites: rows.map((row) => represent(org, row)) };
}

/** PATCH /favorites/{favoriteId}/usage: one more use, now. */
export async function updateFavoriteUsage(
  db: Queryable,
  principal: Principal,
  favoriteId: string,
  now: Date,
): Promise<Favorite> {
  const id = toId18(favoriteId);
  if (!id) throw notFound();
  const { rows } = await db.query<FavoriteRow>(
    `UPDATE favorite SET access_count = access_count + 1, last_access_date = $3
     WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [id, principal.userId, now],
  );
  if (!rows[0]) throw notFound();
  return represent(await describeOrg(db), rows[0]);
}
