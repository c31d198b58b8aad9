/**
 * Creating, changing and deleting list views. Everything a list view names is checked as its creator sees the
 * object: a column, filter or sort of a field it may not read fails exactly like one of a field that does not
 * exist; filters must fit their fields and the filter logic must name each filter. A new list view is
 * Private unless the body says otherwise, and only those who manage list views may make one Public or Shared
 * or change anyone else's (access.ts).
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { makeId } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { compileWhere } from '../query/where.ts';
import { cut } from '../query/errors.ts';
import { invalidField } from '../records/field-paths.ts';
import { createsListViews, listViewRights, managesListViews, shareTarget } from './access.ts';
import { listContext, objectContext, type ListContext, type ObjectContext } from './context.ts';
import {
  isMruList,
  LIST_VIEW_KEY_PREFIX,
  SCOPES,
  type ListView,
  type ListViewDefinition,
  type ScopeName,
} from './definitions.ts';
import { listViewWhere } from './filters.ts';
import { buildListInfo, readablePath, type ListInfo } from './info.ts';
import {
  deleteListView,
  insertListView,
  listViewNamed,
  lockedDefinition,
  NO_PREFERENCES,
  updateListViewDefinition,
} from './store.ts';

type ListInfoPostInput = Schemas['ListInfoPostInputRepresentation'];
type ListInfoUpdateInput = Schemas['ListInfoUpdateInputRepresentation'];

/** Sequence numbers of list views users create start here, past those of the org's own in the metadata files. */
const FIRST_USER_SEQUENCE = 1000;

const invalidInput = (message: string) => new PlatformError(400, 'INVALID_INPUT', message);
const forbidden = (message: string) => new PlatformError(403, 'INSUFFICIENT_ACCESS', message);

/** An API name made from a label: letters, digits and single underscores, starting with a letter. */
export function apiNameFromLabel(label: string): string {
  const name = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return /^[A-Za-z]/.test(name) ? name : `X${name}`.slice(0, 80);
}

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\0')
    : value !== null && typeof value === 'object'
      ? Object.values(value).some(holdsNul)
      : false;

/** The columns, in the metadata's spelling; each one the creator may read. */
function checkedColumns(context: ObjectContext, columns: string[]): string[] {
  const spelled = columns.map((path) => {
    const resolved = readablePath(context.target, path);
    if (!resolved) throw invalidField(context.object.apiName, cut(path));
    return resolved.path;
  });
  const lower = spelled.map((path) => path.toLowerCase());
  if (new Set(lower).size !== lower.length) throw invalidInput('displayColumns names a column twice');
  return spelled;
}

/**
 * Checks a definition as its creator sees the object: columns, filters and their logic, scope, shares, and
 * (when `sharing` is set: a new list view, or a change of its visibility or shares) the right to share it.
 */
function checkDefinition(context: ObjectContext, definition: ListViewDefinition, sharing: boolean): ListViewDefinition {
  const { org, object, principal, target } = context;
  if (!definition.label.trim()) throw invalidInput('label must not be blank');
  // PostgreSQL text (and jsonb) cannot hold NUL: refused here rather than failing in the database.
  if (holdsNul(definition)) throw invalidInput('The list view holds a NUL character');
  const filter = listViewWhere(org, object, definition.filteredByInfo, definition.filterLogicString);
  if (filter) compileWhere(filter, target, { now: new Date(), parameter: 'filteredByInfo' });
  if (definition.scope !== null && !(SCOPES as readonly string[]).includes(definition.scope)) {
    throw invalidInput(`Unknown scope '${cut(definition.scope)}'; the scopes are ${SCOPES.join(', ')}`);
  }
  for (const share of definition.listShares)
    if (!shareTarget(share)) throw invalidInput(`No role or group named ${cut(share)}`);
  if (definition.visibility === 'Shared' && definition.listShares.length === 0)
    throw invalidInput('A Shared list view needs listShares: the roles and groups it is shared with');
  if (definition.visibility !== 'Shared' && definition.listShares.length > 0)
    throw invalidInput(`A ${definition.visibility} list view has no listShares; set visibility to Shared`);
  if (sharing && definition.visibility !== 'Private' && !managesListViews(principal, object)) {
    throw forbidden(
      `You don't have permission to make list views of ${object.definition.labelPlural} ${definition.visibility}.`,
    );
  }
  return { ...definition, displayColumns: checkedColumns(context, definition.displayColumns) };
}

/** A scope of the input: its API name (entities are not supported: no queue or team scopes here). */
function scopeOf(scope: ListInfoPostInput['scope']): ScopeName | undefined {
  if (!scope) return undefined;
  if (scope.entityId !== undefined || scope.relatedEntityId !== undefined)
    throw invalidInput('Scopes with an entity are not supported');
  return (scope.apiName ?? 'everything') as ScopeName;
}

/** The object's default attributes: the columns and order of its first list view of all records without filters, else its name field. */
async function defaults(
  db: Queryable,
  context: ObjectContext,
): Promise<Pick<ListViewDefinition, 'displayColumns' | 'orderedByInfo'>> {
  const { rows } = await db.query<{ definition: ListViewDefinition }>(
    `SELECT definition FROM list_view WHERE object_api_name = $1 AND owner_id IS NULL AND definition ->> 'scope' = 'everything'
       AND jsonb_array_length(definition -> 'filteredByInfo') = 0 ORDER BY id LIMIT 1`,
    [context.object.apiName],
  );
  const source = rows[0]?.definition;
  const readable = (paths: string[]) => paths.filter((path) => readablePath(context.target, path));
  if (source)
    return {
      displayColumns: readable(source.displayColumns),
      orderedByInfo: source.orderedByInfo.filter((key) => readablePath(context.target, key.fieldApiName)),
    };
  return { displayColumns: readable(context.object.definition.nameFields.slice(0, 1)), orderedByInfo: [] };
}

async function nextId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ last_value: string | number }>(
    `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, $2)
     ON CONFLICT (key_prefix) DO UPDATE SET last_value = GREATEST(id_sequence.last_value + 1, $2) RETURNING last_value`,
    [LIST_VIEW_KEY_PREFIX, FIRST_USER_SEQUENCE],
  );
  return makeId(LIST_VIEW_KEY_PREFIX, Number(rows[0].last_value));
}

const taken = (object: string, apiName: string) =>
  new PlatformError(409, 'DUPLICATE_DEVELOPER_NAME', `A list view named ${apiName} already exists for ${object}.`);

/** POST list-info/{objectApiName}: creates a list view owned by the caller. */
export async function createListInfo(
  db: Database,
  principal: Principal,
  objectApiName: string,
  input: ListInfoPostInput,
): Promise<ListInfo> {
  const context = await objectContext(db, principal, objectApiName);
  if (!createsListViews(principal, context.object))
    throw forbidden(`You don't have permission to create list views of ${context.object.definition.labelPlural}.`);
  if (!input.label && !input.listViewApiName) throw invalidInput('Give the list view a label or a listViewApiName');
  const apiName = input.listViewApiName ?? apiNameFromLabel(input.label as string);
  const base = input.includeDefaultAttributes ? await defaults(db, context) : { displayColumns: [], orderedByInfo: [] };
  const definition = checkDefinition(
    context,
    {
      label: input.label ?? apiName,
      displayColumns: input.displayColumns ?? base.displayColumns,
      filteredByInfo: input.filteredByInfo ?? [],
      filterLogicString: input.filterLogicString ?? null,
      orderedByInfo: base.orderedByInfo,
      scope: scopeOf(input.scope) ?? 'everything',
      visibility: input.visibility ?? 'Private',
      listShares: input.listShares ?? [],
    },
    true,
  );
  if (await listViewNamed(db, principal.userId, context.object.apiName, apiName))
    throw taken(context.object.apiName, apiName);
  const view: ListView = {
    id: await nextId(db),
    objectApiName: context.object.apiName,
    apiName,
    ownerId: principal.userId,
    definition,
  };
  try {
    await insertListView(db, view);
  } catch (error) {
    // Created meanwhile by another request: the unique name index refused this one.
    if (await listViewNamed(db, principal.userId, context.object.apiName, apiName))
      throw taken(context.object.apiName, apiName);
    throw error;
  }
  return buildListInfo({ ...context, view, preferences: NO_PREFERENCES });
}

/** The list view a change names, when the caller may change it: 404 when it may not see it, 403 when it may see but not change it. */
async function changeable(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
  what: 'updateable' | 'deletable',
): Promise<ListContext> {
  const context = await listContext(db, principal, objectApiName, listViewApiName);
  if (isMruList(context.view) || !listViewRights(principal, context.object, context.view)[what]) {
    throw forbidden(
      `You don't have permission to ${what === 'updateable' ? 'change' : 'delete'} the list view ${context.view.apiName}.`,
    );
  }
  return context;
}

/** PATCH list-info/{objectApiName}/{listViewApiName}: the attributes given replace the list view's. */
export async function updateListInfo(
  db: Database,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
  input: ListInfoUpdateInput,
): Promise<ListInfo> {
  const context = await changeable(db, principal, objectApiName, listViewApiName, 'updateable');
  // The definition is read again under its row's lock: a change made meanwhile (another property, by another
  // request) is merged into, not saved over.
  const view = await db.transaction(async (tx) => {
    const current = await lockedDefinition(tx, context.view);
    if (!current) throw notFound();
    const filters = input.filteredByInfo ?? current.filteredByInfo;
    const visibility = input.visibility ?? current.visibility;
    const definition = checkDefinition(
      context,
      {
        label: input.label ?? current.label,
        displayColumns: input.displayColumns ?? current.displayColumns,
        filteredByInfo: filters,
        // New filters without a logic are ANDed; the old logic fits only the old filters.
        filterLogicString: input.filterLogicString ?? (input.filteredByInfo ? null : current.filterLogicString),
        orderedByInfo: current.orderedByInfo,
        scope: scopeOf(input.scope) ?? current.scope,
        visibility,
        listShares: input.listShares ?? (visibility === 'Shared' ? current.listShares : []),
      },
      visibility !== current.visibility || input.listShares !== undefined,
    );
    const changed = { ...context.view, definition };
    await updateListViewDefinition(tx, changed);
    return changed;
  });
  return buildListInfo({ ...context, view });
}

/** DELETE list-info/{objectApiName}/{listViewApiName}. */
export async function deleteListInfo(
  db: Database,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
): Promise<void> {
  const context = await changeable(db, principal, objectApiName, listViewApiName, 'deletable');
  await db.transaction((tx) => deleteListView(tx, context.view));
}
