/**
 * One page of a list's records, through the query core: the records of the list view's object that the caller
 * may see, narrowed by the list view's scope and filters, the request's `where` and `searchTerm` (over the
 * view's searchable columns), in the requested order (else the caller's, else the view's; the MRU list in the
 * order the caller used its records), with the view's columns, Id and the fields asked for. A field the caller
 * may not read answers, in every parameter, exactly as one that does not exist.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { pageLinks, LIST_RECORDS_PAGE_SIZE, splitLookahead } from '../query/page-token.ts';
import { buildListQuery, type ListQueryInput } from '../query/select.ts';
import { ownedBy } from '../query/target.ts';
import { canSeeRecord } from '../records/access.ts';
import { parseFieldLists, selectFields, type ObjectSelection } from '../records/field-paths.ts';
import { buildRecords } from '../records/rows.ts';
import type { RecordRow } from '../records/representation.ts';
import type { ListContext } from './context.ts';
import { isMruList } from './definitions.ts';
import { listViewWhere } from './filters.ts';
import { displayColumns, effectiveOrder, listReference, readablePath } from './info.ts';
import { mruSource } from '../query/mru-source.ts';

export type ListRecordCollection = Schemas['ListRecordCollectionRepresentation'];

export interface ListRecordsRequest {
  fields?: string[];
  optionalFields?: string[];
  pageSize?: number | string | null;
  pageToken?: string | null;
  /** Fields, most significant first, `-` for descending: a list, or comma-separated. */
  sortBy?: string[] | string | null;
  searchTerm?: string | null;
  where?: string | null;
}

/** A field of the request as a qualified path: `Name` and `Object.Name` alike become `Object.Name`. */
export function qualified(objectApiName: string, path: string): string {
  const [first] = path.split('.');
  return path.includes('.') && first.toLowerCase() === objectApiName.toLowerCase()
    ? `${objectApiName}${path.slice(first.length)}`
    : `${objectApiName}.${path}`;
}

/** What a list's records are read with: the query core's input, and the fields each record carries. */
interface ListQueryPlan {
  input: ListQueryInput;
  selection: ObjectSelection;
  /** The display columns the caller may read, as paths (`Name`, `Owner.Name`). */
  columns: string[];
}

/**
 * The query of a list's records as the caller may read them: the list view's scope and filters, the request's
 * `where` and `searchTerm` (over the view's searchable columns), its order (else the caller's, else the
 * view's), and the view's columns, Id and the fields asked for. Used by the pages and by the export alike.
 */
export function listQueryPlan(context: ListContext, request: ListRecordsRequest, now: Date): ListQueryPlan {
  const { org, object, principal, target, view, preferences } = context;
  const fields = request.fields ?? [];
  const optionalFields = request.optionalFields ?? [];
  const columns = displayColumns(context).map((column) => column.fieldApiName);
  const paths = parseFieldLists(
    fields.map((path) => qualified(object.apiName, path)),
    ['Id', ...columns, ...optionalFields].map((path) => qualified(object.apiName, path)),
  );
  const selection = selectFields(org, principal, object, paths);
  // The view's own order names only what the caller may read; a request's sortBy is checked by the query core.
  const defaultSortBy = effectiveOrder(view, preferences)
    .filter((key) => readablePath(target, key.fieldApiName))
    .map((key) => `${key.isAscending ? '' : '-'}${key.fieldApiName}`);
  const input: ListQueryInput = {
    target,
    now,
    conditions: view.definition.scope === 'mine' ? [ownedBy(principal.userId)] : [],
    viewFilter: listViewWhere(org, object, view.definition.filteredByInfo, view.definition.filterLogicString),
    where: request.where,
    searchTerm: request.searchTerm,
    searchFields: columns,
    sortBy: request.sortBy,
    defaultSortBy,
    pageSize: request.pageSize,
    defaultPageSize: LIST_RECORDS_PAGE_SIZE,
    pageToken: request.pageToken,
    source: isMruList(view) ? mruSource(principal.userId, object.apiName) : undefined,
  };
  return { input, selection, columns };
}

/**
 * The page of records. `basePath` is the resource the page URLs name (list-records by name or id, or
 * mru-list-records); `listInfoETag` the eTag of the list's info as the caller sees it.
 */
export async function listRecords(
  db: Queryable,
  context: ListContext,
  request: ListRecordsRequest,
  basePath: string,
  listInfoETag: string,
  now: Date,
): Promise<ListRecordCollection> {
  const { object, principal, view } = context;
  const fields = request.fields ?? [];
  const optionalFields = request.optionalFields ?? [];
  const { input, selection } = listQueryPlan(context, request, now);
  const query = buildListQuery(input);
  const { rows } = await db.query<RecordRow>(query.rows.text, query.rows.values);
  const page = splitLookahead(rows, query.pageSize);
  // The query saw only visible records; the same rule again, so that a record is never shown by mistake.
  const records = await buildRecords(
    db,
    principal,
    page.rows.filter((row) => canSeeRecord(principal, object, row)),
    selection,
  );
  const sortBy = query.sourceOrder ? null : query.sort.sortBy;
  const echoedSort = Array.isArray(request.sortBy) ? request.sortBy.join(',') : request.sortBy;
  const links = pageLinks(
    basePath,
    { fields, optionalFields, searchTerm: request.searchTerm, sortBy: echoedSort, where: request.where },
    query.offset,
    query.pageSize,
    page.hasMore,
  );
  return {
    count: records.length,
    currentPageToken: links.currentPageToken,
    currentPageUrl: links.currentPageUrl,
    fields,
    listInfoETag,
    listReference: listReference(view),
    nextPageToken: links.nextPageToken,
    nextPageUrl: links.nextPageUrl,
    optionalFields,
    pageSize: query.pageSize,
    previousPageToken: links.previousPageToken,
    previousPageUrl: links.previousPageUrl,
    records,
    searchTerm: request.searchTerm ?? null,
    sortBy,
    where: request.where ?? null,
  };
}
