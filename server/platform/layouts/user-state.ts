/**
 * Each user's own state of a layout: which of its collapsible sections they have collapsed, kept per
 * object, record type, layout type and mode. A section the user never touched is expanded.
 */
import type { Database, Queryable } from '../../db/connection.ts';
import { PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import {
  layoutDefinition,
  parseLayoutMode,
  parseLayoutType,
  readableObject,
  resolveRecordType,
  type LayoutQuery,
} from './layouts.ts';
import type { Principal } from '../core/principal.ts';

interface LayoutUserStateInput {
  sectionUserStates: Record<string, { collapsed: boolean }>;
}

const needsSession = () => new PlatformError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');

async function layoutOfState(db: Queryable, principal: Principal, objectApiName: string, query: LayoutQuery) {
  if (principal.isGuest) throw needsSession();
  const layoutType = parseLayoutType(query.layoutType);
  const mode = parseLayoutMode(query.mode);
  const object = await readableObject(db, principal, objectApiName);
  const recordType = resolveRecordType(object, query.recordTypeId);
  const definition = await layoutDefinition(db, object, recordType, layoutType);
  const sectionIds = definition.sections
    .filter((section) => section.collapsible && section.id)
    .map((section) => section.id as string);
  return { object, recordType, layoutType, mode, definition, sectionIds };
}

async function stateOf(db: Queryable, principal: Principal, layout: Awaited<ReturnType<typeof layoutOfState>>) {
  const { rows } = await db.query<{ section_id: string; collapsed: boolean }>(
    `SELECT section_id, collapsed FROM layout_user_state
     WHERE user_id = $1 AND object_api_name = $2 AND record_type_id = $3 AND layout_type = $4 AND mode = $5`,
    [principal.userId, layout.object.apiName, layout.recordType.id, layout.layoutType, layout.mode],
    { prepareAs: 'layout_user_state' },
  );
  const collapsed = new Map(rows.map((row) => [row.section_id, row.collapsed]));
  return {
    apiName: layout.object.apiName,
    id: layout.definition.id,
    layoutType: layout.layoutType,
    mode: layout.mode,
    recordTypeId: layout.recordType.id,
    sectionUserStates: Object.fromEntries(
      layout.sectionIds.map((id) => [id, { collapsed: collapsed.get(id) ?? false, id }]),
    ),
  };
}

/** GET /layout/{objectApiName}/user-state: the caller's state of every collapsible section of the layout. */
export async function getLayoutUserState(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: LayoutQuery,
) {
  return stateOf(db, principal, await layoutOfState(db, principal, objectApiName, query));
}

/** PATCH /layout/{objectApiName}/user-state: records the named sections' states, leaves the others, returns the whole state. */
export async function updateLayoutUserState(
  db: Database,
  principal: Principal,
  objectApiName: string,
  query: LayoutQuery,
  input: LayoutUserStateInput,
) {
  const layout = await layoutOfState(db, principal, objectApiName, query);
  const changes: [string, boolean][] = [];
  for (const [sectionId, state] of Object.entries(input.sectionUserStates)) {
    const id = toId18(sectionId);
    if (!id || !layout.sectionIds.includes(id))
      throw new PlatformError(
        400,
        'INVALID_INPUT',
        `Invalid layout user state: ${sectionId} is not a collapsible section of the layout ${layout.definition.id}`,
      );
    changes.push([id, state.collapsed]);
  }
  await db.transaction(async (tx) => {
    for (const [sectionId, collapsed] of changes) {
      await tx.query(
        `INSERT INTO layout_user_state (user_id, object_api_name, record_type_id, layout_type, mode, section_id, collapsed, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now())
         ON CONFLICT (user_id, object_api_name, record_type_id, layout_type, mode, section_id)
         DO UPDATE SET collapsed = EXCLUDED.collapsed, updated_at = now()`,
        [
          principal.userId,
          layout.object.apiName,
          layout.recordType.id,
          layout.layoutType,
          layout.mode,
          sectionId,
          collapsed,
        ],
      );
    }
  });
  return stateOf(db, principal, layout);
}
