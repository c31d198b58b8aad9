/**
 * The records of related lists, through the list engine's query core: the child records that point at the
 * parent record and that the caller may see, narrowed by the related list's own filter and the request's
 * `where`, in the requested order (else the caller's, else the layout's), a page at a time (50 by default),
 * with the fields asked for, the companion fields (CreatedDate, Id, LastModifiedById, LastModifiedDate,
 * SystemModstamp) and the name field. Counts stop at maxCount and say whether there are more, reading no
 * more children than that.
 */
import type { Schemas } from '../../../generated/types.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import type { Queryable } from '../../db/connection.ts';
import { etagOf } from '../core/etag.ts';
import type { Principal } from '../core/principal.ts';
import { illegalValue } from '../query/errors.ts';
import { LIST_RECORDS_PAGE_SIZE, pageLinks, splitLookahead } from '../query/page-token.ts';
import { buildListQuery, type ListQuery } from '../query/select.ts';
import type { RowCondition } from '../query/sql.ts';
import { canSeeRecord } from '../records/access.ts';
import { COMPANION_FIELDS, parseFieldLists, selectFields } from '../records/field-paths.ts';
import { buildRecords } from '../records/rows.ts';
import type { RecordRow } from '../records/representation.ts';
import { qualified } from '../lists/records.ts';
import { readablePath, pathLabel } from '../lists/info.ts';
import { batchItem, relatedListNames } from './batch.ts';
import { nameFieldOf, parentRecordContext, relatedListContext, type RelatedListContext } from './context.ts';
import { parentReference } from './indexes.ts';
import { buildRelatedListInfo, effectiveOrder, relatedListReference, unqualified } from './info.ts';

type RelatedListRecordCollection = Schemas['RelatedListRecordCollectionRepresentation'];

interface RelatedListRecordsRequest {
  fields?: string[];
  optionalFields?: string[];
  pageSize?: number;
  pageToken?: string;
  sortBy?: string[];
  where?: string;
  includeColumnLabels?: boolean;
}

/** Default and largest maxCount of a count. */
const DEFAULT_MAX_COUNT = 20;
const MAX_MAX_COUNT = 2000;

/** The child records that point at the parent record. */
function childrenOf(context: RelatedListContext): RowCondition {
  const { fieldName } = context.definition.relationship;
  const parentId = context.parentRecordId;
  // The expression the related lists' indexes begin with (indexes.ts).
  return (alias, parameters) => `${parentReference(fieldName, alias)} = ${parameters.add(parentId, 'text')}`;
}

function relatedListQuery(
  context: RelatedListContext,
  request: RelatedListRecordsRequest,
  now: Date,
  countAtMost?: number,
): ListQuery {
  const defaultSortBy = effectiveOrder(context)
    .filter((key) => readablePath(context.target, key.fieldApiName))
    .map((key) => `${key.isAscending ? '' : '-'}${key.fieldApiName}`);
  return buildListQuery({
    target: context.target,
    now,
    conditions: [childrenOf(context)],
    viewFilter: context.definition.entry.where ?? null,
    where: request.where,
    sortBy: request.sortBy?.map((entry) =>
      entry.startsWith('-')
        ? `-${unqualified(context.child.apiName, entry.slice(1))}`
        : unqualified(context.child.apiName, entry),
    ),
    defaultSortBy,
    pageSize: request.pageSize,
    defaultPageSize: LIST_RECORDS_PAGE_SIZE,
    pageToken: request.pageToken,
    countAtMost,
  });
}

/** The labels of the columns: of the fields asked for that the caller may read, else of the layout's columns. */
function columnLabels(context: RelatedListContext, request: RelatedListRecordsRequest): Record<string, string> {
  const asked = [...(request.fields ?? []), ...(request.optionalFields ?? [])].map((path) =>
    unqualified(context.child.apiName, path),
  );
  const paths = asked.length > 0 ? asked : context.definition.entry.displayColumns;
  const labels: Record<string, string> = {};
  for (const path of paths) {
    const resolved = readablePath(context.target, path);
    if (resolved) labels[resolved.path] = pathLabel(context.org, context.child, resolved.path);
  }
  return labels;
}

async function relatedListRecords(
  db: Queryable,
  context: RelatedListContext,
  request: RelatedListRecordsRequest,
  now: Date,
): Promise<RelatedListRecordCollection> {
  const { org, child, principal } = context;
  const fields = request.fields ?? [];
  const optionalFields = request.optionalFields ?? [];
  const name = nameFieldOf(child);
  // Without fields asked for, the layout's columns; always the companion fields and the name field.
  const columns = fields.length + optionalFields.length === 0 ? context.definition.entry.displayColumns : [];
  const paths = parseFieldLists(
    fields.map((path) => qualified(child.apiName, unqualified(child.apiName, path))),
    [
      ...COMPANION_FIELDS,
      ...(name ? [name] : []),
      ...columns,
      ...optionalFields.map((path) => unqualified(child.apiName, path)),
    ].map((path) => qualified(child.apiName, path)),
  );
  const selection = selectFields(org, principal, child, paths);
  const query = relatedListQuery(context, request, now);
  const { rows } = await db.query<RecordRow>(query.rows.text, query.rows.values);
  const page = splitLookahead(rows, query.pageSize);
  // The query saw only visible records; the same rule again, so that a record is never shown by mistake.
  const records = await buildRecords(
    db,
    principal,
    page.rows.filter((row) => canSeeRecord(principal, child, row)),
    selection,
  );
  // The order as the request gave it (checked by the query core); empty for the related list's own order.
  const sortBy = request.sortBy ?? [];
  const basePath = `${UI_API_PATH}/related-list-records/${context.parentRecordId}/${context.definition.entry.relatedListId}`;
  const links = pageLinks(
    basePath,
    { fields, optionalFields, sortBy: request.sortBy, where: request.where },
    query.offset,
    query.pageSize,
    page.hasMore,
  );
  const collection: RelatedListRecordCollection = {
    count: records.length,
    currentPageToken: links.currentPageToken,
    currentPageUrl: links.currentPageUrl,
    fields,
    listInfoETag: buildRelatedListInfo(context).eTag,
    listReference: relatedListReference(context),
    nextPageToken: links.nextPageToken,
    nextPageUrl: links.nextPageUrl,
    optionalFields,
    pageSize: query.pageSize,
    previousPageToken: links.previousPageToken,
    previousPageUrl: links.previousPageUrl,
    records,
    sortBy,
    where: request.where ?? null,
  };
  if (request.includeColumnLabels) collection.columnLabels = columnLabels(context, request);
  return collection;
}

/** POST related-list-records/{parentRecordId}/{relatedListId}, and its GET form (whose URLs the page links are). */
export async function getRelatedListRecords(
  db: Queryable,
  principal: Principal,
  parentRecordId: string,
  relatedListId: string,
  request: RelatedListRecordsRequest,
  now: Date,
): Promise<RelatedListRecordCollection> {
  const parent = await parentRecordContext(db, principal, parentRecordId);
  return relatedListRecords(db, await relatedListContext(db, parent, relatedListId), request, now);
}

/** POST related-list-records/batch/{parentRecordId}: a result per entry, each failing on its own. */
export async function getRelatedListRecordsBatch(
  db: Queryable,
  principal: Principal,
  parentRecordId: string,
  input: Schemas['RelatedListRecordsBatchInputRepresentation'],
  now: Date,
): Promise<Schemas['RelatedListRecordCollectionBatchRepresentation']> {
  const parent = await parentRecordContext(db, principal, parentRecordId);
  const results = [];
  for (const { relatedListId, ...request } of input.relatedListParameters) {
    results.push(
      await batchItem(async () =>
        relatedListRecords(db, await relatedListContext(db, parent, relatedListId), request, now),
      ),
    );
  }
  return { results } as Schemas['RelatedListRecordCollectionBatchRepresentation'];
}

function parseMaxCount(maxCount: number | undefined): number {
  const value = maxCount ?? DEFAULT_MAX_COUNT;
  if (!Number.isInteger(value) || value < 1 || value > MAX_MAX_COUNT)
    throw illegalValue('maxCount', `${value} is not a whole number from 1 to ${MAX_MAX_COUNT}`);
  return value;
}

async function relatedListCount(
  db: Queryable,
  context: RelatedListContext,
  maxCount: number,
  now: Date,
): Promise<Schemas['RelatedListRecordCountRepresentation']> {
  const query = relatedListQuery(context, {}, now, maxCount + 1);
  const { rows } = await db.query<{ total: number }>(query.count.text, query.count.values);
  const total = rows[0]?.total ?? 0;
  const count = {
    count: Math.min(total, maxCount),
    hasMore: total > maxCount,
    listReference: relatedListReference(context),
  };
  return { ...count, eTag: etagOf(count) };
}

/** GET related-list-count/{parentRecordId}/{relatedListId}. */
export async function getRelatedListCount(
  db: Queryable,
  principal: Principal,
  parentRecordId: string,
  relatedListId: string,
  maxCount: number | undefined,
  now: Date,
): Promise<Schemas['RelatedListRecordCountRepresentation']> {
  const limit = parseMaxCount(maxCount);
  const parent = await parentRecordContext(db, principal, parentRecordId);
  return relatedListCount(db, await relatedListContext(db, parent, relatedListId, false), limit, now);
}

/** GET related-list-count/batch/{parentRecordId}/{relatedListNames}. */
export async function getRelatedListsCount(
  db: Queryable,
  principal: Principal,
  parentRecordId: string,
  names: string,
  maxCount: number | undefined,
  now: Date,
): Promise<Schemas['BatchRelatedListCountRepresentation']> {
  const relatedListIds = relatedListNames(names);
  const limit = parseMaxCount(maxCount);
  const parent = await parentRecordContext(db, principal, parentRecordId);
  const results = [];
  for (const relatedListId of relatedListIds) {
    results.push(
      await batchItem(async () =>
        relatedListCount(db, await relatedListContext(db, parent, relatedListId, false), limit, now),
      ),
    );
  }
  return { results } as Schemas['BatchRelatedListCountRepresentation'];
}
