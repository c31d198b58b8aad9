/**
 * Lists of actions: global, a record's, a record's while edited, the ones that create an object's records,
 * a lookup dialog's, a list view's, a recent-records list's, a list view chart's, a list view row's, a
 * record photo's and a Lightning page's (a related list's are in related-lists.ts, overrides and formulas in
 * overrides.ts). An action is listed only when the caller may do what it does: Edit on
 * a record it may change, Delete where it may delete, create actions for objects it may create (docs/product-spec.md §7 Actions).
 */
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { associations } from '../records/avatars.ts';
import { listContextById, type ListContext } from '../lists/context.ts';
import { canSeeRecord } from '../records/access.ts';
import { fetchRows } from '../records/rows.ts';
import type { RecordRow } from '../records/representation.ts';
import {
  loadActions,
  placementFor,
  SECTIONS,
  type ActionListContext,
  type FlexipageDefinition,
} from './definitions.ts';
import {
  actionFor,
  filtered,
  representation,
  type ActionListQuery,
  type ActionRepresentation,
  type PlatformAction,
  type Source,
} from './listing.ts';

/** A comma-separated query parameter as a list; absent or empty, undefined. */
export function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  return value.split(',').filter((item) => item !== '');
}

/** Record ids of the path, each checked (400 for a malformed one) and made 18 characters long. */
export function recordIdsOf(parameter: string, ids: string[]): string[] {
  return ids.map((id) => {
    const id18 = toId18(id);
    if (!id18) throw new PlatformError(400, 'INVALID_ID_FIELD', `Illegal value for parameter '${parameter}': ${id}`);
    return id18;
  });
}

export interface VisibleRecord {
  row: RecordRow;
  object: DescribedObject;
}

/** The records named, each one the caller may see; one it may not see answers exactly like a missing one (404). */
export async function visibleRecords(
  db: Queryable,
  org: OrgDescribe,
  principal: Principal,
  ids: string[],
): Promise<VisibleRecord[]> {
  const rows = await fetchRows(db, ids);
  return ids.map((id) => {
    const row = rows.get(id);
    const object = row ? org.objects.get(row.object_api_name) : undefined;
    if (!row || !object || !canSeeRecord(principal, object, row)) throw notFound();
    return { row, object };
  });
}

function recordTypeName(record: VisibleRecord): string {
  const type = record.object.recordTypes.find((candidate) => candidate.id === record.row.record_type_id);
  return !type || type.isMaster ? 'Master' : type.developerName;
}

/** GET /actions/global. */
export async function getGlobalActions(
  db: Queryable,
  principal: Principal,
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const file = loadActions().objects.get('Global');
  const source: Source = { context: 'Global', sourceObject: 'Global' };
  const actions: PlatformAction[] = [];
  for (const section of SECTIONS) {
    for (const apiName of file?.sections?.[section] ?? []) {
      const action = actionFor(principal, org, apiName, source, section, undefined);
      if (action) actions.push(action);
    }
  }
  const url = `${UI_API_PATH}/actions/global`;
  return representation(url, [['Global', filtered(actions, query), url]]);
}

/** The actions of one record as its page shows them (PageLayout) or every action it has (All). */
function recordActions(
  principal: Principal,
  org: OrgDescribe,
  record: VisibleRecord,
  query: ActionListQuery,
): PlatformAction[] {
  const file = loadActions().objects.get(record.object.apiName);
  const placed = placementFor(file, recordTypeName(record));
  const source: Source = { context: 'Record', sourceObject: record.row.id };
  const actions: PlatformAction[] = [];
  const listed = new Set<string>();
  for (const section of SECTIONS) {
    for (const apiName of placed[section] ?? []) {
      const action = actionFor(principal, org, apiName, source, section, record.object, record);
      if (action) actions.push(action);
      listed.add(apiName.toLowerCase());
    }
  }
  if (query.retrievalMode === 'All') {
    // Every action the record has, placed or not: its object's quick actions and the record's standard buttons, on the Page.
    const candidates = [
      ...loadActions()
        .standard.filter((action) => action.contexts.includes('Record'))
        .map((action) => action.apiName),
      ...(file?.quickActions.map((action) => `${record.object.apiName}.${action.name}`) ?? []),
    ];
    for (const apiName of candidates) {
      if (listed.has(apiName.toLowerCase())) continue;
      const action = actionFor(principal, org, apiName, source, 'Page', record.object, record);
      if (action) actions.push(action);
    }
  }
  return filtered(actions, query);
}

const SECTIONS_OR_API_NAMES_MESSAGE = 'getRecordActions needs sections or apiNames: give at least one of them';

/** GET /actions/record/{recordIds}: sections or apiNames (or both) are required. */
export async function getRecordActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  if (!query.sections && !query.apiNames)
    throw new PlatformError(400, 'MISSING_ARGUMENT', SECTIONS_OR_API_NAMES_MESSAGE);
  const org = await describeOrg(db);
  const ids = recordIdsOf('recordIds', recordIds);
  const records = await visibleRecords(db, org, principal, ids);
  return representation(
    `${UI_API_PATH}/actions/record/${recordIds.join(',')}`,
    records.map((record) => [
      record.row.id,
      recordActions(principal, org, record, query),
      `${UI_API_PATH}/actions/record/${record.row.id}`,
    ]),
  );
}

/** GET /actions/record/{recordIds}/record-edit: the buttons of a record's edit form (Save only when the caller may change it). */
export async function getRecordEditActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const records = await visibleRecords(db, org, principal, recordIdsOf('recordIds', recordIds));
  const standard = loadActions().standard.filter((action) => action.contexts.includes('RecordEdit'));
  return representation(
    `${UI_API_PATH}/actions/record/${recordIds.join(',')}/record-edit`,
    records.map((record) => {
      const source: Source = { context: 'RecordEdit', sourceObject: record.row.id };
      const actions = standard.flatMap((action) => {
        const listed = actionFor(principal, org, action.apiName, source, 'Page', record.object, record);
        return listed ? [listed] : [];
      });
      return [record.row.id, filtered(actions, query), `${UI_API_PATH}/actions/record/${record.row.id}/record-edit`];
    }),
  );
}

/** An object the caller may read, by API name in any case; otherwise 404, as for one that does not exist. */
export function readableObjectOf(org: OrgDescribe, principal: Principal, apiName: string): DescribedObject {
  const object = org.byLowerName.get(apiName.toLowerCase());
  if (!object || !objectPermissions(principal, object.apiName).read) throw notFound();
  return object;
}

function createActions(
  principal: Principal,
  org: OrgDescribe,
  object: DescribedObject,
  context: ActionListContext,
): PlatformAction[] {
  const file = loadActions().objects.get(object.apiName);
  const source: Source = { context, sourceObject: object.apiName };
  const names = context === 'Lookup' ? ['New'] : (file?.createActions ?? ['New']);
  return names.flatMap((apiName) => {
    const action = actionFor(principal, org, apiName, source, 'Page', object);
    return action ? [action] : [];
  });
}

/** GET /actions/object/{objectApiName}/record-create. */
export async function getObjectCreateActions(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const object = readableObjectOf(org, principal, objectApiName);
  const url = `${UI_API_PATH}/actions/object/${object.apiName}/record-create`;
  return representation(url, [
    [object.apiName, filtered(createActions(principal, org, object, 'ObjectHomeChart'), query), url],
  ]);
}

/**
 * A list of the create actions of objects named, each once and keyed by its API name, as a place of the
 * given context shows them (`resource` is the list's path under /actions); an object the caller may not read
 * fails the whole request with 404.
 */
async function objectsCreateActions(
  db: Queryable,
  principal: Principal,
  objectApiNames: string[],
  query: ActionListQuery,
  context: ActionListContext,
  resource: string,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const objects = [
    ...new Map(
      objectApiNames.map((name) => readableObjectOf(org, principal, name)).map((object) => [object.apiName, object]),
    ).values(),
  ];
  return representation(
    `${UI_API_PATH}/actions/${resource}/${objectApiNames.join(',')}`,
    objects.map((object) => [
      object.apiName,
      filtered(createActions(principal, org, object, context), query),
      `${UI_API_PATH}/actions/${resource}/${object.apiName}`,
    ]),
  );
}

/** GET /actions/lookup/{objectApiNames}: per object, what its lookup dialog offers (New, when the caller may create). */
export const getLookupActions = (
  db: Queryable,
  principal: Principal,
  objectApiNames: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> => objectsCreateActions(db, principal, objectApiNames, query, 'Lookup', 'lookup');

/** GET /actions/mru-list/{objectApiNames}: per object, what its list of recently viewed records offers (its create actions). */
export const getMruListActions = (
  db: Queryable,
  principal: Principal,
  objectApiNames: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> => objectsCreateActions(db, principal, objectApiNames, query, 'MruList', 'mru-list');

/** GET /actions/list-view-chart/{objectApiNames}: per object, what the chart of its list views offers (its create actions). */
export const getListViewChartActions = (
  db: Queryable,
  principal: Principal,
  objectApiNames: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> =>
  objectsCreateActions(db, principal, objectApiNames, query, 'ObjectHomeChart', 'list-view-chart');

/**
 * GET /actions/list-view/{listViewIds}: per list view, keyed by its id, what the list offers: its object's
 * create actions. A list view that does not exist or that the caller may not see fails the request (404).
 */
export async function getListViewActions(
  db: Queryable,
  principal: Principal,
  listViewIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const lists = new Map<string, ListContext>();
  for (const listViewId of listViewIds) {
    const list = await listContextById(db, principal, listViewId, 'listViewIds');
    lists.set(list.view.id ?? listViewId, list);
  }
  return representation(
    `${UI_API_PATH}/actions/list-view/${listViewIds.join(',')}`,
    [...lists].map(([id, list]) => [
      id,
      filtered(createActions(principal, list.org, list.object, 'ListView'), query),
      `${UI_API_PATH}/actions/list-view/${id}`,
    ]),
  );
}

/** The standard actions of a context on each record, keyed by record id; a record the caller may not see: 404. */
async function recordsStandardActions(
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  query: ActionListQuery,
  context: ActionListContext,
  resource: string,
  withPhotos = false,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const records = await visibleRecords(db, org, principal, recordIdsOf('recordIds', recordIds));
  const pictures = withPhotos
    ? await associations(
        db,
        records.map((record) => record.row.id),
      )
    : new Map<string, unknown>();
  const standard = loadActions().standard.filter((action) => action.contexts.includes(context));
  return representation(
    `${UI_API_PATH}/actions/${resource}/${recordIds.join(',')}`,
    records.map((record) => {
      const source: Source = { context, sourceObject: record.row.id };
      const subject = { ...record, hasPhoto: pictures.has(record.row.id) };
      const actions = standard.flatMap((action) => {
        const listed = actionFor(principal, org, action.apiName, source, 'Page', record.object, subject);
        return listed ? [listed] : [];
      });
      return [record.row.id, filtered(actions, query), `${UI_API_PATH}/actions/${resource}/${record.row.id}`];
    }),
  );
}

/** GET /actions/list-view-record/{recordIds}: the actions of each record as a row of a list view (Edit, Delete, Change Owner). */
export const getListViewRecordActions = (
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> =>
  recordsStandardActions(db, principal, recordIds, query, 'ListViewRecord', 'list-view-record');

/** GET /actions/photo/{recordIds}: the actions of each record's photo (update it; delete it, when it has one). */
export const getPhotoActions = (
  db: Queryable,
  principal: Principal,
  recordIds: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> => recordsStandardActions(db, principal, recordIds, query, 'Photo', 'photo', true);

/**
 * GET /actions/flexipage/{flexipageNames}: per Lightning page, keyed by its developer name, the actions placed
 * on it that the caller may do. A page that does not exist, or a record page of an object the caller may not
 * read, fails the request (404).
 */
export async function getFlexipageActions(
  db: Queryable,
  principal: Principal,
  flexipageNames: string[],
  query: ActionListQuery,
): Promise<ActionRepresentation> {
  const org = await describeOrg(db);
  const pages = new Map<string, FlexipageDefinition>();
  for (const name of flexipageNames) {
    const page = loadActions().flexipages.get(name.toLowerCase());
    if (!page) throw notFound();
    pages.set(page.developerName, page);
  }
  return representation(
    `${UI_API_PATH}/actions/flexipage/${flexipageNames.join(',')}`,
    [...pages.values()].map((page) => {
      const object = page.objectApiName ? readableObjectOf(org, principal, page.objectApiName) : undefined;
      const source: Source = { context: 'FlexiPage', sourceObject: page.developerName };
      const actions: PlatformAction[] = [];
      for (const section of SECTIONS) {
        for (const apiName of page.sections[section] ?? []) {
          const action = actionFor(principal, org, apiName, source, section, object);
          if (action) actions.push(action);
        }
      }
      return [page.developerName, filtered(actions, query), `${UI_API_PATH}/actions/flexipage/${page.developerName}`];
    }),
  );
}
