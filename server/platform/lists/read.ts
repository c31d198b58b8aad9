/**
 * The read operations of lists: a list view's info (by name, by id, or several in a batch with a result per
 * list view), a page of its records, and both together (list UI). A list is named by object and list view
 * API name (`__Recent` for the MRU list) or by list view id.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { etagOf } from '../core/etag.ts';
import { PlatformError } from '../core/errors.ts';
import type { Principal } from '../core/principal.ts';
import { illegalValue } from '../query/errors.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import { listContext, listContextById, type ListContext } from './context.ts';
import { isMruList } from './definitions.ts';
import { buildListInfo, type ListInfo } from './info.ts';
import { listRecords, type ListRecordCollection, type ListRecordsRequest } from './records.ts';
import { noteListViewUsed } from './store.ts';

type ListReferenceInput = { objectApiName: string; listViewApiName: string } | { listViewId: string };

/** Most list views one batch names, ids and names together. */
const MAX_BATCH_LIST_VIEWS = 100;

function contextOf(db: Queryable, principal: Principal, list: ListReferenceInput): Promise<ListContext> {
  return 'listViewId' in list
    ? listContextById(db, principal, list.listViewId)
    : listContext(db, principal, list.objectApiName, list.listViewApiName);
}

/** The resource the page URLs of a list's records name: the one the list was named by. */
function recordsPath(context: ListContext, list: ListReferenceInput): string {
  if (isMruList(context.view)) return `${UI_API_PATH}/mru-list-records/${context.object.apiName}`;
  if ('listViewId' in list) return `${UI_API_PATH}/list-records/${context.view.id}`;
  return `${UI_API_PATH}/list-records/${context.object.apiName}/${context.view.apiName}`;
}

export async function getListInfo(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  listViewApiName: string,
): Promise<ListInfo> {
  return buildListInfo(await listContext(db, principal, objectApiName, listViewApiName));
}

export async function getListInfoById(db: Queryable, principal: Principal, listViewId: string): Promise<ListInfo> {
  return buildListInfo(await listContextById(db, principal, listViewId, 'objectApiName'));
}

/**
 * GET list-info/batch: one result per list view, ids first then names (`Object.ListView`), each with the
 * status it would have alone; a list view that does not exist or may not be seen is a 404 result.
 */
export async function getListInfos(
  db: Queryable,
  principal: Principal,
  ids: string[],
  names: string[],
): Promise<Schemas['ListInfoBatchRepresentation']> {
  if (ids.length + names.length === 0) throw illegalValue('ids', 'give ids, names or both');
  if (ids.length + names.length > MAX_BATCH_LIST_VIEWS)
    throw illegalValue('names', `at most ${MAX_BATCH_LIST_VIEWS} list views in all, not ${ids.length + names.length}`);
  const lists: ListReferenceInput[] = [
    ...ids.map((listViewId) => ({ listViewId })),
    ...names.map((name) => {
      const [objectApiName, listViewApiName] = name.split('.');
      return { objectApiName, listViewApiName };
    }),
  ];
  const results: Schemas['ListInfoBatchRepresentation']['results'] = [];
  for (const list of lists) {
    try {
      results.push({ statusCode: 200, result: buildListInfo(await contextOf(db, principal, list)) });
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      results.push({ statusCode: error.status, result: [{ errorCode: error.errorCode, message: error.message }] });
    }
  }
  return { results };
}

/** A page of a list's records (list-records by name or id, mru-list-records). */
export async function readListRecords(
  db: Queryable,
  principal: Principal,
  list: ListReferenceInput,
  request: ListRecordsRequest,
  now: Date,
): Promise<ListRecordCollection> {
  const context = await contextOf(db, principal, list);
  return listRecords(db, context, request, recordsPath(context, list), buildListInfo(context).eTag, now);
}

/** A list's info and a page of its records, in one answer; opening a list view counts as using it (recentListsOnly). */
export async function getListUi(
  db: Queryable,
  principal: Principal,
  list: ListReferenceInput,
  request: ListRecordsRequest,
  now: Date,
): Promise<Schemas['ListUiRepresentation']> {
  const context = await contextOf(db, principal, list);
  const info = buildListInfo(context);
  const records = await listRecords(db, context, request, recordsPath(context, list), info.eTag, now);
  await noteListViewUsed(db, principal.userId, context.view);
  return { eTag: etagOf({ info, records }), info, records };
}
