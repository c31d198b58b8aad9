/**
 * One page of the list views of an object that the caller may see, by label (or, with recentListsOnly, those
 * it opened, most recent first), narrowed by q: a label that contains q without regard to case, `*` standing
 * for any run of characters. The most-recently-used list has no id and is not among them. Two shapes: the
 * list UI's ListViewSummaryCollection and list info's ListInfoSummaryCollection.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { etagOf } from '../core/etag.ts';
import type { Principal } from '../core/principal.ts';
import { pageLinks, parsePageSize, parsePageToken } from '../query/page-token.ts';
import { canSeeListView } from './access.ts';
import { UI_API_PATH } from '../../../common/platform.ts';
import { objectContext } from './context.ts';
import { isMruList, type ListView } from './definitions.ts';
import { listViewsOf } from './store.ts';

/** Default page size of list view summaries. */
const SUMMARIES_PAGE_SIZE = 20;

interface SummariesRequest {
  q?: string;
  recentListsOnly?: boolean;
  pageSize?: number;
  pageToken?: string;
}

/** Whether a label matches q: contains it, any case, `*` for any run of characters. */
export function labelMatches(label: string, q: string | undefined): boolean {
  if (!q) return true;
  const pattern = q
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(pattern, 's').test(label.toLowerCase());
}

interface Page {
  objectApiName: string;
  views: ListView[];
  links: ReturnType<typeof pageLinks>;
  pageSize: number;
}

async function summaryPage(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  request: SummariesRequest,
  basePath: (object: string) => string,
): Promise<Page> {
  const pageSize = parsePageSize(request.pageSize, SUMMARIES_PAGE_SIZE);
  const offset = parsePageToken(request.pageToken);
  const { object } = await objectContext(db, principal, objectApiName);
  const all = (await listViewsOf(db, principal.userId, object.apiName)).filter(
    ({ view, usedAt }) =>
      !isMruList(view) &&
      canSeeListView(principal, object, view) &&
      labelMatches(view.definition.label, request.q) &&
      (!request.recentListsOnly || usedAt !== null),
  );
  const byLabel = (a: ListView, b: ListView) =>
    a.definition.label.localeCompare(b.definition.label, 'en') || (a.apiName < b.apiName ? -1 : 1);
  all.sort(
    (a, b) => (request.recentListsOnly ? b.usedAt!.getTime() - a.usedAt!.getTime() : 0) || byLabel(a.view, b.view),
  );
  const views = all.slice(offset, offset + pageSize).map(({ view }) => view);
  const parameters = { q: request.q, recentListsOnly: request.recentListsOnly ? true : undefined };
  return {
    objectApiName: object.apiName,
    views,
    pageSize,
    links: pageLinks(basePath(object.apiName), parameters, offset, pageSize, offset + pageSize < all.length),
  };
}

const listUiUrl = (view: ListView) => `${UI_API_PATH}/list-ui/${view.id}`;

/** GET list-ui/{objectApiName}: ListViewSummaryCollectionRepresentation. */
export async function listViewSummaries(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  request: SummariesRequest,
): Promise<Schemas['ListViewSummaryCollectionRepresentation']> {
  const page = await summaryPage(db, principal, objectApiName, request, (object) => `${UI_API_PATH}/list-ui/${object}`);
  const body = {
    count: page.views.length,
    currentPageToken: page.links.currentPageToken,
    currentPageUrl: page.links.currentPageUrl,
    lists: page.views.map((view) => ({
      apiName: view.apiName,
      id: view.id as string,
      label: view.definition.label,
      listUiUrl: listUiUrl(view),
    })),
    nextPageToken: page.links.nextPageToken,
    nextPageUrl: page.links.nextPageUrl,
    objectApiName: page.objectApiName,
    pageSize: page.pageSize,
    previousPageToken: page.links.previousPageToken,
    previousPageUrl: page.links.previousPageUrl,
    queryString: request.q ?? null,
    recentListsOnly: request.recentListsOnly ?? false,
  };
  return { ...body, eTag: etagOf(body) };
}

/** GET list-info/{objectApiName}: ListInfoSummaryCollectionRepresentation. */
export async function listInfoSummaries(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  request: SummariesRequest,
): Promise<Schemas['ListInfoSummaryCollectionRepresentation']> {
  const page = await summaryPage(
    db,
    principal,
    objectApiName,
    request,
    (object) => `${UI_API_PATH}/list-info/${object}`,
  );
  return {
    count: page.views.length,
    currentPageToken: page.links.currentPageToken,
    currentPageUrl: page.links.currentPageUrl,
    lists: page.views.map((view) => ({
      apiName: view.apiName,
      id: view.id as string,
      label: view.definition.label,
      url: listUiUrl(view),
    })),
    nextPageToken: page.links.nextPageToken,
    nextPageUrl: page.links.nextPageUrl,
    objectApiName: page.objectApiName,
    pageSize: page.pageSize,
    previousPageToken: page.links.previousPageToken,
    previousPageUrl: page.links.previousPageUrl,
    queryString: request.q ?? null,
    recentListsOnly: request.recentListsOnly ?? false,
  };
}
