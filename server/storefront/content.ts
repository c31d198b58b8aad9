/**
 * Content delivery: the published content items of a site or channel, one at a time or a page at a time,
 * in the platform's Managed Content Delivery Document (Collection) shapes. Plain functions over the db.
 */
import type { Queryable } from '../db/connection.ts';
import { invalidId, notFound, PlatformError } from '../platform/errors.ts';
import { toId18 } from '../platform/ids.ts';

const CONNECT = '/services/data/v65.0/connect';
const CONTENT_KEY = /^MC[A-Z0-9]{26}$/;

export const MAX_CONTENT_KEYS = 50;
export const MAX_MANAGED_CONTENT_IDS = 100;
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 250;
export const MAX_PAGE_SIZE_WITH_BODY = 25;
export const MAX_REFERENCE_DEPTH = 3;

/** Where content is asked for: a site (0DM...) or a delivery channel (0ap...). */
export interface DeliveryScope {
  kind: 'site' | 'channel';
  id: string;
}

/** The options of a collection request, as given (strings for the csv lists). */
export interface ContentQueryInput {
  contentKeys?: string;
  managedContentIds?: string;
  contentTypeFQN?: string;
  page?: number;
  pageSize?: number;
  referenceDepth?: number;
  includeContentBody?: boolean;
}

export interface ContentQuery {
  contentKeys: string[] | null;
  managedContentIds: string[] | null;
  contentTypeFQN: string | null;
  page: number;
  pageSize: number;
  referenceDepth: number;
  includeContentBody: boolean;
}

const illegal = (name: string, value: unknown, why: string) =>
  new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Illegal value for query parameter '${name}': ${String(value)} (${why})`);

function csv(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  return [...new Set(text.split(',').map((item) => item.trim()).filter((item) => item !== ''))];
}

function checkInteger(name: string, value: number, min: number, max: number) {
  if (!Number.isInteger(value) || value < min || value > max) throw illegal(name, value, `a whole number from ${min} to ${max}`);
}

/** Checks and completes the options of a collection request with the platform's defaults and limits. */
export function contentQueryOf(input: ContentQueryInput): ContentQuery {
  const contentKeys = csv(input.contentKeys);
  const ids = csv(input.managedContentIds);
  if (contentKeys && ids) throw illegal('managedContentIds', input.managedContentIds, 'give contentKeys or managedContentIds, not both');
  if (contentKeys && contentKeys.length > MAX_CONTENT_KEYS) throw illegal('contentKeys', `${contentKeys.length} keys`, `at most ${MAX_CONTENT_KEYS}`);
  for (const key of contentKeys ?? []) if (!CONTENT_KEY.test(key)) throw illegal('contentKeys', key, 'not a content key');
  if (ids && ids.length > MAX_MANAGED_CONTENT_IDS) throw illegal('managedContentIds', `${ids.length} ids`, `at most ${MAX_MANAGED_CONTENT_IDS}`);
  const managedContentIds = ids?.map((id) => {
    const id18 = toId18(id);
    if (!id18) throw new PlatformError(400, 'INVALID_ID_FIELD', `Illegal value for query parameter 'managedContentIds': ${id}`);
    return id18;
  }) ?? null;
  const includeContentBody = input.includeContentBody ?? false;
  const page = input.page ?? 0;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const referenceDepth = input.referenceDepth ?? 0;
  checkInteger('page', page, 0, 100_000);
  checkInteger('pageSize', pageSize, 1, MAX_PAGE_SIZE);
  if (includeContentBody && pageSize > MAX_PAGE_SIZE_WITH_BODY) throw illegal('pageSize', pageSize, `at most ${MAX_PAGE_SIZE_WITH_BODY} with includeContentBody=true`);
  checkInteger('referenceDepth', referenceDepth, 0, MAX_REFERENCE_DEPTH);
  return { contentKeys, managedContentIds, contentTypeFQN: input.contentTypeFQN ?? null, page, pageSize, referenceDepth, includeContentBody };
}

/** The server-relative URL of a page of a collection, its query parameters in alphabetical order. */
export function pageUrl(scope: DeliveryScope, query: ContentQuery, page: number): string {
  const params: [string, string][] = [];
  if (query.contentKeys) params.push(['contentKeys', query.contentKeys.join(',')]);
  if (query.contentTypeFQN) params.push(['contentTypeFQN', query.contentTypeFQN]);
  if (query.includeContentBody) params.push(['includeContentBody', 'true']);
  if (query.managedContentIds) params.push(['managedContentIds', query.managedContentIds.join(',')]);
  params.push(['page', String(page)], ['pageSize', String(query.pageSize)]);
  if (query.referenceDepth > 0) params.push(['referenceDepth', String(query.referenceDepth)]);
  return `${contentsPath(scope)}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

function contentsPath(scope: DeliveryScope): string {
  return scope.kind === 'site' ? `${CONNECT}/sites/${scope.id}/cms/delivery/contents` : `${CONNECT}/cms/delivery/channels/${scope.id}/contents`;
}

/** The media path of an image item's current file, to be served behind the site prefix (/sfsites/c). */
export function mediaPath(contentKey: string, version: string): string {
  return `/cms/delivery/media/${contentKey}?version=${encodeURIComponent(version)}`;
}

/** The content keys a body refers to: fields whose value is a reference {contentKey, managedContentId}. */
export function referencedKeys(body: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const value of Object.values(body)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const { contentKey, managedContentId } = value as Record<string, unknown>;
      if (typeof contentKey === 'string' && typeof managedContentId === 'string') keys.push(contentKey);
    }
  }
  return keys;
}

interface ChannelRow {
  id: string;
  name: string;
  channel_type: string;
}

interface ContentRow {
  id: string;
  content_key: string;
  content_type: string;
  content_type_name: string;
  title: string;
  url_name: string;
  language: string;
  content_body: Record<string, unknown>;
  published_date: Date | string;
  media_version: string | null;
}

/**
 * The channel that serves a site or is asked for, and the scope with its 18-character id; a malformed id
 * (or one of another kind) is a 400, an unknown one a 404.
 */
async function channelOf(db: Queryable, scope: DeliveryScope): Promise<{ channel: ChannelRow; scope: DeliveryScope }> {
  const prefix = scope.kind === 'site' ? '0DM' : '0ap';
  const parameter = scope.kind === 'site' ? 'siteId' : 'channelId';
  const id = toId18(scope.id);
  if (!id || !id.startsWith(prefix)) throw invalidId(parameter, scope.id);
  const column = scope.kind === 'site' ? 'site_id' : 'id';
  const { rows } = await db.query<ChannelRow>(`SELECT id, name, channel_type FROM cms_channel WHERE ${column} = $1`, [id]);
  if (rows.length === 0) throw notFound();
  return { channel: rows[0], scope: { kind: scope.kind, id } };
}

const CONTENT_COLUMNS = `mc.id, mc.content_key, mc.content_type, mc.content_type_name, mc.title, mc.url_name, mc.language,
  mc.content_body, mc.published_date, m.version AS media_version`;
const PUBLISHED_TO = `FROM managed_content mc
  JOIN managed_content_channel cc ON cc.managed_content_id = mc.id AND cc.channel_id = $1
  LEFT JOIN managed_content_media m ON m.content_key = mc.content_key`;

async function contentByKeys(db: Queryable, channelId: string, keys: string[]): Promise<ContentRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await db.query<ContentRow>(`SELECT ${CONTENT_COLUMNS} ${PUBLISHED_TO} WHERE mc.content_key = ANY($2::text[]) ORDER BY mc.id`, [channelId, keys]);
  return rows;
}

/**
 * The items that the roots refer to, up to depth levels: each level adds the items the previous level
 * refers to. Items that are not published to the channel are left out.
 */
async function referenceGraph(db: Queryable, channelId: string, roots: ContentRow[], depth: number): Promise<Map<string, ContentRow>> {
  const graph = new Map<string, ContentRow>();
  let frontier = roots;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const wanted = [...new Set(frontier.flatMap((row) => referencedKeys(row.content_body)))].filter((key) => !graph.has(key));
    frontier = await contentByKeys(db, channelId, wanted);
    for (const row of frontier) graph.set(row.content_key, row);
  }
  return graph;
}

function referenceOf(row: ContentRow) {
  return {
    contentKey: row.content_key,
    contentType: { fullyQualifiedName: row.content_type, name: row.content_type_name },
    managedContentId: row.id,
    title: row.title,
    urlName: row.url_name,
  };
}

/** The references of some items within depth levels, by content key; null at depth 0. */
function referencesOf(rows: ContentRow[], graph: Map<string, ContentRow>, depth: number) {
  if (depth === 0) return null;
  const found: Record<string, ReturnType<typeof referenceOf>> = {};
  let frontier = rows;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: ContentRow[] = [];
    for (const key of frontier.flatMap((row) => referencedKeys(row.content_body))) {
      const referred = graph.get(key);
      if (!referred || found[key]) continue;
      found[key] = referenceOf(referred);
      next.push(referred);
    }
    frontier = next;
  }
  return found;
}

function channelSummary(channel: ChannelRow, origin: string | null) {
  return { domainUrl: origin, id: channel.id, name: channel.name, resourceUrl: `${CONNECT}/cms/delivery/channels/${channel.id}`, type: channel.channel_type };
}

/** The body as delivered: an image's media url points at the current version of its file. */
function deliveredBody(row: ContentRow): Record<string, unknown> {
  const body = structuredClone(row.content_body);
  const media = body['sfdc_cms:media'];
  if (row.media_version !== null && media && typeof media === 'object') {
    (media as Record<string, unknown>).url = mediaPath(row.content_key, row.media_version);
  }
  return body;
}

interface DocumentContext {
  scope: DeliveryScope;
  channel: ChannelRow;
  origin: string | null;
  includeContentBody: boolean;
  graph: Map<string, ContentRow>;
  referenceDepth: number;
}

function documentOf(row: ContentRow, context: DocumentContext) {
  return {
    channelSummary: channelSummary(context.channel, context.origin),
    ...(context.includeContentBody ? { contentBody: deliveredBody(row) } : {}),
    contentKey: row.content_key,
    contentType: { fullyQualifiedName: row.content_type, name: row.content_type_name },
    language: row.language,
    managedContentId: row.id,
    publishedDate: new Date(row.published_date).toISOString(),
    references: referencesOf([row], context.graph, context.referenceDepth),
    referencesList: null,
    resourceUrl: `${contentsPath(context.scope)}/${row.content_key}`,
    title: row.title,
    unauthenticatedUrl: row.media_version === null ? null : mediaPath(row.content_key, row.media_version),
    urlName: row.url_name,
  };
}

export interface DeliveryOptions {
  referenceDepth?: number;
  /** The origin the site is served from, for channelSummary.domainUrl; null when unknown. */
  origin?: string | null;
}

/** One published item, with its body, by content key or managed content id (15 or 18 characters). */
export async function getManagedContent(db: Queryable, asked: DeliveryScope, contentKeyOrId: string, options: DeliveryOptions = {}) {
  const referenceDepth = options.referenceDepth ?? 0;
  checkInteger('referenceDepth', referenceDepth, 0, MAX_REFERENCE_DEPTH);
  const { channel, scope } = await channelOf(db, asked);
  const byKey = CONTENT_KEY.test(contentKeyOrId);
  const id = byKey ? null : toId18(contentKeyOrId);
  if (!byKey && !id) throw notFound();
  const { rows } = await db.query<ContentRow>(
    `SELECT ${CONTENT_COLUMNS} ${PUBLISHED_TO} WHERE ${byKey ? 'mc.content_key' : 'mc.id'} = $2`,
    [channel.id, byKey ? contentKeyOrId : id],
  );
  if (rows.length === 0) throw notFound();
  const graph = await referenceGraph(db, channel.id, rows, referenceDepth);
  return documentOf(rows[0], { scope, channel, origin: options.origin ?? null, includeContentBody: true, graph, referenceDepth });
}

/** A page of the published items, filtered and paged as the query says, in the order they were created. */
export async function getManagedContents(db: Queryable, asked: DeliveryScope, input: ContentQueryInput, options: Omit<DeliveryOptions, 'referenceDepth'> = {}) {
  const query = contentQueryOf(input);
  const { channel, scope } = await channelOf(db, asked);
  const { rows } = await db.query<ContentRow>(
    `SELECT ${CONTENT_COLUMNS} ${PUBLISHED_TO}
     WHERE ($2::text[] IS NULL OR mc.content_key = ANY($2::text[]))
       AND ($3::text[] IS NULL OR mc.id = ANY($3::text[]))
       AND ($4::text IS NULL OR mc.content_type = $4::text)
     ORDER BY mc.id LIMIT $5 OFFSET $6`,
    [channel.id, query.contentKeys, query.managedContentIds, query.contentTypeFQN, query.pageSize + 1, query.page * query.pageSize],
  );
  const hasNext = rows.length > query.pageSize;
  const pageRows = rows.slice(0, query.pageSize);
  const graph = await referenceGraph(db, channel.id, pageRows, query.referenceDepth);
  const context: DocumentContext = { scope, channel, origin: options.origin ?? null, includeContentBody: query.includeContentBody, graph, referenceDepth: query.referenceDepth };
  return {
    channelSummary: channelSummary(channel, context.origin),
    contents: pageRows.map((row) => documentOf(row, context)),
    currentPageUrl: pageUrl(scope, query, query.page),
    nextPageUrl: hasNext ? pageUrl(scope, query, query.page + 1) : null,
    previousPageUrl: query.page > 0 ? pageUrl(scope, query, query.page - 1) : null,
    references: referencesOf(pageRows, graph, query.referenceDepth),
    referencesList: null,
  };
}
