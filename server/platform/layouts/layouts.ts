/**
 * Record layouts of the org: loaded from metadata/layouts/*.json into the database at start, served per
 * object, record type, layout type and mode as the caller may see them. An object without layout data gets
 * the layout the platform would build for it: every field, two to a row.
 */
import { frozenUnderTest } from '../../cache/frozen.ts';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database, Queryable } from '../../db/connection.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import { describeObject, type DescribedObject, type DescribedRecordType } from '../core/describe.ts';
import { noAccess, notFound, PlatformError } from '../core/errors.ts';
import { etagOf } from '../core/etag.ts';
import { toId18 } from '../core/ids.ts';
import {
  buildLayout,
  defaultLayoutDefinition,
  LAYOUT_MODES,
  LAYOUT_TYPES,
  layoutFieldNames,
  layoutFileProblems,
  type LayoutDefinition,
  type LayoutFile,
  type LayoutMode,
  type LayoutType,
  type RecordLayout,
} from './build.ts';
import { fieldPermissions, objectPermissions, type Principal } from '../core/principal.ts';

export { LAYOUT_MODES, LAYOUT_TYPES, type LayoutMode, type LayoutType, type RecordLayout } from './build.ts';

const LAYOUTS_DIR = resolve(import.meta.dirname, '../metadata/layouts');

export interface LayoutQuery {
  layoutType?: string;
  mode?: string;
  recordTypeId?: string;
}

const illegalQueryValue = (parameter: string, value: string) =>
  new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Illegal value for query parameter '${parameter}': ${value}`);

/** The layout type of a request, Full when absent; anything but Full or Compact is a 400, as on the platform. */
export function parseLayoutType(value: string | undefined): LayoutType {
  if (value === undefined) return 'Full';
  if (!(LAYOUT_TYPES as readonly string[]).includes(value)) throw illegalQueryValue('layoutType', value);
  return value as LayoutType;
}

/** The mode of a request, View when absent; anything but Create, Edit or View is a 400, as on the platform. */
export function parseLayoutMode(value: string | undefined): LayoutMode {
  if (value === undefined) return 'View';
  if (!(LAYOUT_MODES as readonly string[]).includes(value)) throw illegalQueryValue('mode', value);
  return value as LayoutMode;
}

/** An object the caller may read, by API name in any case; one it may not read answers like one that does not exist. */
export async function readableObject(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<DescribedObject> {
  const object = await describeObject(db, objectApiName);
  if (!object || !objectPermissions(principal, object.apiName).read) throw noAccess();
  return object;
}

/** The record type of a request: the given one (15 or 18 characters) of the object, or the object's default. */
export function resolveRecordType(object: DescribedObject, recordTypeId: string | undefined): DescribedRecordType {
  if (recordTypeId === undefined) {
    const fallback =
      object.recordTypes.find((type) => type.isDefault) ??
      object.recordTypes.find((type) => type.isMaster) ??
      object.recordTypes[0];
    if (!fallback) throw notFound();
    return fallback;
  }
  const id = toId18(recordTypeId);
  if (!id?.startsWith('012'))
    throw new PlatformError(
      400,
      'INVALID_ID_FIELD',
      `Illegal value for query parameter 'recordTypeId': ${recordTypeId}`,
    );
  const type = object.recordTypes.find((candidate) => candidate.id === id);
  if (!type) throw notFound();
  return type;
}

interface LayoutRow {
  object_api_name: string;
  name: string;
  layout_type: string;
  record_types: string[];
  definition: LayoutDefinition;
}

/** The org's layout data by object, read once per database handle and again after each change (cache/per-database.ts). */
const layoutData = oncePerDatabase(async (db): Promise<Map<string, LayoutDefinition[]>> => {
  const { rows } = await db.query<LayoutRow>(
    'SELECT object_api_name, name, layout_type, record_types, definition FROM layout ORDER BY object_api_name, name',
  );
  const byObject = new Map<string, LayoutDefinition[]>();
  for (const row of rows)
    byObject.set(row.object_api_name, [...(byObject.get(row.object_api_name) ?? []), row.definition]);
  return byObject;
});

/** The layout definition assigned to a record type for a layout type, or the one built from the object's fields. */
export async function layoutDefinition(
  db: Queryable,
  object: DescribedObject,
  recordType: DescribedRecordType,
  layoutType: LayoutType,
): Promise<LayoutDefinition> {
  const layouts = (await layoutData(db)).get(object.apiName) ?? [];
  const assigned = layouts.find(
    (layout) => layout.layoutType === layoutType && layout.recordTypes.includes(recordType.developerName),
  );
  // A record type with no layout of its own shows the master record type's, as on the platform.
  const master = layouts.find((layout) => layout.layoutType === layoutType && layout.recordTypes.includes('Master'));
  return (
    assigned ??
    master ??
    defaultLayoutDefinition(object.apiName, layoutType, object.fields, object.definition.nameFields)
  );
}

function render(
  object: DescribedObject,
  definition: LayoutDefinition,
  recordType: DescribedRecordType,
  mode: LayoutMode,
  principal?: Principal,
): RecordLayout {
  return buildLayout(definition, {
    objectApiName: object.apiName,
    recordTypeId: recordType.id,
    mode,
    fieldsByName: object.fieldsByName,
    access: principal ? (field) => fieldPermissions(principal, object.apiName, field.apiName) : undefined,
    canCreate: principal ? objectPermissions(principal, object.apiName).create : true,
  });
}

const withETag = <T extends object>(body: T) => ({ eTag: etagOf(body), ...body });

type AnsweredLayout = ReturnType<typeof withETag<RecordLayout>>;

/**
 * Layouts as each profile sees them, per described object, by layout definition, record type and mode: they
 * depend on nothing else, and a new read of the metadata describes every object anew, so that they go with
 * the old one.
 */
const layoutsByObject = new WeakMap<
  DescribedObject,
  Map<string, { definition: LayoutDefinition; layout: AnsweredLayout }>
>();

/** GET /layout/{objectApiName}: the RecordLayoutRepresentation of a record type, layout type and mode, as the caller sees it (kept: do not change it). */
export async function getLayout(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: LayoutQuery = {},
): Promise<AnsweredLayout> {
  const layoutType = parseLayoutType(query.layoutType);
  const mode = parseLayoutMode(query.mode);
  const object = await readableObject(db, principal, objectApiName);
  const recordType = resolveRecordType(object, query.recordTypeId);
  const definition = await layoutDefinition(db, object, recordType, layoutType);
  let kept = layoutsByObject.get(object);
  if (!kept) layoutsByObject.set(object, (kept = new Map()));
  // Profiles are loaded once per process: their names tell them apart.
  const key = `${principal.profile.id}/${layoutType}/${recordType.id}/${mode}`;
  const entry = kept.get(key);
  if (entry?.definition === definition) return entry.layout;
  const layout = frozenUnderTest(withETag(render(object, definition, recordType, mode, principal)));
  // A definition built from the fields (an object without layout data) is new at every call: kept too, by key.
  kept.set(key, { definition, layout });
  return layout;
}

/** The field paths of layouts, per described object, like layoutsByObject. */
const fieldPathsByObject = new WeakMap<
  DescribedObject,
  Map<string, { definition: LayoutDefinition; paths: readonly string[] }>
>();

/**
 * The `Object.Field` paths of a layout's fields, whoever asks (callers filter by field permissions):
 * what getRecord reads for its layoutTypes and modes. Kept: do not change them.
 */
export async function layoutFieldPaths(
  db: Queryable,
  objectApiName: string,
  recordTypeId: string | null | undefined,
  layoutType: 'Full' | 'Compact',
  mode: 'View' | 'Edit' | 'Create',
): Promise<readonly string[]> {
  const object = await describeObject(db, objectApiName);
  if (!object) throw noAccess();
  const recordType = resolveRecordType(object, recordTypeId ?? undefined);
  const definition = await layoutDefinition(db, object, recordType, parseLayoutType(layoutType));
  let kept = fieldPathsByObject.get(object);
  if (!kept) fieldPathsByObject.set(object, (kept = new Map()));
  const key = `${layoutType}/${recordType.id}/${mode}`;
  const entry = kept.get(key);
  if (entry?.definition === definition) return entry.paths;
  const layout = render(object, definition, recordType, parseLayoutMode(mode));
  const paths = frozenUnderTest(layoutFieldNames(layout).map((name) => `${object.apiName}.${name}`));
  kept.set(key, { definition, paths });
  return paths;
}

/** GET /path/layout/{objectApiName}: the layout named by layoutOverride, shaped as a Full record layout. */
export async function getPathLayout(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: LayoutQuery & { layoutOverride: string },
) {
  const mode = parseLayoutMode(query.mode);
  const object = await readableObject(db, principal, objectApiName);
  const recordType = resolveRecordType(object, query.recordTypeId);
  const wanted = query.layoutOverride.toLowerCase();
  const definition = ((await layoutData(db)).get(object.apiName) ?? []).find(
    (layout) => layout.name.toLowerCase() === wanted,
  );
  if (!definition) throw notFound();
  return withETag(render(object, { ...definition, layoutType: 'Full' }, recordType, mode, principal));
}

function readLayoutFiles(): LayoutFile[] {
  if (!existsSync(LAYOUTS_DIR)) return [];
  return readdirSync(LAYOUTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(resolve(LAYOUTS_DIR, name), 'utf8')) as LayoutFile);
}

/**
 * Loads the layout files whose content (or whose object's fields and record types) changed since the last
 * load. A file that names a field or record type its object lacks stops the start: a layout must not
 * silently lose fields.
 */
export async function loadLayouts(db: Database): Promise<string[]> {
  const loaded: string[] = [];
  for (const file of readLayoutFiles()) {
    const object = await db.query<{ hash: string }>(
      `SELECT definition ->> 'hash' AS hash FROM sobject WHERE api_name = $1`,
      [file.objectApiName],
    );
    if (object.rows.length === 0) throw new Error(`Layouts of ${file.objectApiName}: no such object`);
    const hash = createHash('sha256')
      .update(JSON.stringify(file))
      .update(object.rows[0].hash ?? '')
      .digest('hex');
    const { rows } = await db.query<{ hash: string }>('SELECT hash FROM layout_source WHERE object_api_name = $1', [
      file.objectApiName,
    ]);
    if (rows[0]?.hash === hash) continue;
    const fields = await db.query<{ api_name: string }>(
      'SELECT api_name FROM sobject_field WHERE object_api_name = $1',
      [file.objectApiName],
    );
    const types = await db.query<{ developer_name: string }>(
      'SELECT developer_name FROM record_type WHERE object_api_name = $1',
      [file.objectApiName],
    );
    const problems = layoutFileProblems(
      file,
      new Set(fields.rows.map((row) => row.api_name)),
      new Set(['Master', ...types.rows.map((row) => row.developer_name)]),
    );
    if (problems.length > 0) throw new Error(`Layouts of ${file.objectApiName}:\n  ${problems.join('\n  ')}`);
    await db.transaction(async (tx) => {
      await tx.query('DELETE FROM layout WHERE object_api_name = $1', [file.objectApiName]);
      for (const layout of file.layouts) {
        await tx.query(
          'INSERT INTO layout (id, object_api_name, name, layout_type, record_types, definition) VALUES ($1, $2, $3, $4, $5, $6::jsonb)',
          [layout.id, file.objectApiName, layout.name, layout.layoutType, layout.recordTypes, JSON.stringify(layout)],
        );
      }
      await tx.query(
        `INSERT INTO layout_source (object_api_name, hash) VALUES ($1, $2) ON CONFLICT (object_api_name) DO UPDATE SET hash = EXCLUDED.hash`,
        [file.objectApiName, hash],
      );
    });
    loaded.push(file.objectApiName);
  }
  layoutData.forget(db);
  return loaded;
}
