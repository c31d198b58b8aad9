/**
 * Content delivery: the published content items of a site or channel, one at a time or a page at a time,
 * in the platform's Managed Content Delivery Document (Collection) shapes. Plain functions over the db.
 */
import type { Schemas } from '../../generated/types.ts';
import type { Queryable } from '../db/connection.ts';
import { invalidId, notFound } from '../platform/core/errors.ts';
import { CONNECT_PATH } from '../../common/platform.ts';
import { toId18 } from '../platform/core/ids.ts';
import {
  CONTENT_KEY,
  contentQueryOf,
  contentsPath,
  pageUrl,
  presentationOf,
  SITE_PREFIX,
  type ContentQueryInput,
  type DeliveryScope,
  type Presentation,
} from './delivery-query.ts';

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
  channel_type: Schemas['ManagedContentDeliveryChannelSummaryRepresentation']['type'];
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
 * The scope with its 18-character id, and the cms_channel column that finds its channel; a malformed id (or one of
 * another kind) is a 400.
 */
function channelScopeOf(scope: DeliveryScope): { scope: DeliveryScope; column: 'site_id' | 'id' } {
  const prefix = scope.kind === 'site' ? '0DM' : '0ap';
  const parameter = scope.kind === 'site' ? 'siteId' : 'channelId';
  const id = toId18(scope.id);
  if (!id?.startsWith(prefix)) throw invalidId(parameter, scope.id);
  return { scope: { kind: scope.kind, id }, column: scope.kind === 'site' ? 'site_id' : 'id' };
}

/** The channel's columns, beside each content row of a query that finds the channel in the same round trip. */
const CHANNEL_COLUMNS = 'ch.id AS channel_id, ch.name AS channel_name, ch.channel_type';

type WithChannel<Row> = Row & { channel_id: string; channel_name: string; channel_type: ChannelRow['channel_type'] };

function channelOfRow(row: WithChannel<unknown>): ChannelRow {
  return { id: row.channel_id, name: row.channel_name, channel_type: row.channel_type };
}

const CONTENT_COLUMNS = `mc.id, mc.content_key, mc.content_type, mc.content_type_name, mc.title, mc.url_name, mc.language,
  mc.content_body, mc.published_date, m.version AS media_version`;
const PUBLISHED_TO = `FROM managed_content mc
  JOIN managed_content_channel cc ON cc.managed_content_id = mc.id AND cc.channel_id = $1
  LEFT JOIN managed_content_media m ON m.content_key = mc.content_key`;

async function contentByKeys(db: Queryable, channelId: string, keys: string[]): Promise<ContentRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await db.query<ContentRow>(
    `SELECT ${CONTENT_COLUMNS} ${PUBLISHED_TO} WHERE mc.content_key = ANY($2::text[]) ORDER BY mc.id`,
    [channelId, keys],
    { prepareAs: 'managed_content_by_keys' },
  );
  return rows;
}

/**
 * The items that the roots refer to, up to depth levels: each level adds the items the previous level
 * refers to. Items that are not published to the channel are left out.
 */
async function referenceGraph(
  db: Queryable,
  channelId: string,
  roots: ContentRow[],
  depth: number,
): Promise<Map<string, ContentRow>> {
  const graph = new Map<string, ContentRow>();
  let frontier = roots;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const wanted = [...new Set(frontier.flatMap((row) => referencedKeys(row.content_body)))].filter(
      (key) => !graph.has(key),
    );
    frontier = await contentByKeys(db, channelId, wanted);
    for (const row of frontier) graph.set(row.content_key, row);
  }
  return graph;
}

function referenceOf(row: ContentRow, context: DocumentContext) {
  return {
    ...(context.presentation.expandReferences ? { contentBody: deliveredBody(row, context) } : {}),
    contentKey: row.content_key,
    contentType: { fullyQualifiedName: row.content_type, name: row.content_type_name },
    managedContentId: row.id,
    title: row.title,
    urlName: row.url_name,
  };
}

/**
 * The references of some items within the presentation's depth: by content key in `references`, or as a list
 * in `referencesList` when asked so; both null at depth 0.
 */
function referencesOf(rows: ContentRow[], context: DocumentContext) {
  const depth = context.presentation.referenceDepth;
  if (depth === 0) return { references: null, referencesList: null };
  const found: Record<string, ReturnType<typeof referenceOf>> = {};
  let frontier = rows;
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: ContentRow[] = [];
    for (const key of frontier.flatMap((row) => referencedKeys(row.content_body))) {
      const referred = context.graph.get(key);
      if (!referred || found[key]) continue;
      found[key] = referenceOf(referred, context);
      next.push(referred);
    }
    frontier = next;
  }
  return context.presentation.referencesAsList
    ? { references: null, referencesList: Object.values(found) }
    : { references: found, referencesList: null };
}

function channelSummary(
  channel: ChannelRow,
  origin: string | null,
): Schemas['ManagedContentDeliveryChannelSummaryRepresentation'] {
  return {
    domainUrl: origin,
    id: channel.id,
    name: channel.name,
    resourceUrl: `${CONNECT_PATH}/cms/delivery/channels/${channel.id}`,
    type: channel.channel_type,
  };
}

/** An image item's media URL: relative to the site prefix, or absolute when asked and the origin is known. */
function mediaUrl(row: ContentRow, context: DocumentContext): string | null {
  if (row.media_version === null) return null;
  const path = mediaPath(row.content_key, row.media_version);
  return context.presentation.showAbsoluteUrl && context.origin ? `${context.origin}${SITE_PREFIX}${path}` : path;
}

/** The body as delivered: an image's media url points at the current version of its file. */
function deliveredBody(row: ContentRow, context: DocumentContext): Record<string, unknown> {
  const body = structuredClone(row.content_body);
  const media = body['sfdc_cms:media'];
  if (row.media_version !== null && media && typeof media === 'object') {
    (media as Record<string, unknown>).url = mediaUrl(row, context);
  }
  return body;
}

interface DocumentContext {
  scope: DeliveryScope;
  channel: ChannelRow;
  origin: string | null;
  includeContentBody: boolean;
  graph: Map<string, ContentRow>;
  presentation: Presentation;
}

function documentOf(row: ContentRow, context: DocumentContext): Schemas['ManagedContentDeliveryDocument'] {
  return {
    channelSummary: channelSummary(context.channel, context.origin),
    ...(context.includeContentBody ? { contentBody: deliveredBody(row, context) } : {}),
    contentKey: row.content_key,
    contentType: { fullyQualifiedName: row.content_type, name: row.content_type_name },
    language: row.language,
    managedContentId: row.id,
    publishedDate: new Date(row.published_date).toISOString(),
    ...referencesOf([row], context),
    resourceUrl: `${contentsPath(context.scope)}/${row.content_key}`,
    title: row.title,
    unauthenticatedUrl: mediaUrl(row, context),
    urlName: row.url_name,
  };
}

interface DeliveryOptions {
  /** The origin the site is served from, for channelSummary.domainUrl and absolute URLs; null when unknown. */
  origin?: string | null;
}

type DeliveryInput = Pick<
  ContentQueryInput,
  'referenceDepth' | 'expandReferences' | 'referencesAsList' | 'showAbsoluteUrl' | 'language'
>;

/** One published item, with its body, by content key or managed content id (15 or 18 characters). */
export async function getManagedContent(
  db: Queryable,
  asked: DeliveryScope,
  contentKeyOrId: string,
  input: DeliveryInput = {},
  options: DeliveryOptions = {},
): Promise<Schemas['ManagedContentDeliveryDocument']> {
  const presentation = presentationOf(input);
  const { scope, column } = channelScopeOf(asked);
  const byKey = CONTENT_KEY.test(contentKeyOrId);
  const id = byKey ? null : toId18(contentKeyOrId);
  if (!byKey && !id) throw notFound();
  // The channel and the item in one round trip: no row is a 404 either way (no such channel, or no such item in it).
  const { rows } = await db.query<WithChannel<ContentRow>>(
    `SELECT ${CHANNEL_COLUMNS}, ${CONTENT_COLUMNS} FROM cms_channel ch
     JOIN managed_content_channel cc ON cc.channel_id = ch.id
     JOIN managed_content mc ON mc.id = cc.managed_content_id
     LEFT JOIN managed_content_media m ON m.content_key = mc.content_key
     WHERE ch.${column} = $1 AND ${byKey ? 'mc.content_key' : 'mc.id'} = $2`,
    [scope.id, byKey ? contentKeyOrId : id],
    { prepareAs: `managed_content_by_${column}_${byKey ? 'key' : 'id'}` },
  );
  if (rows.length === 0) throw notFound();
  const channel = channelOfRow(rows[0]);
  const graph = await referenceGraph(db, channel.id, rows, presentation.referenceDepth);
  return documentOf(rows[0], {
    scope,
    channel,
    origin: options.origin ?? null,
    includeContentBody: true,
    graph,
    presentation,
  });
}

/** A page of the published items, filtered and paged as the query says, in the order they were created. */
export async function getManagedContents(
  db: Queryable,
  asked: DeliveryScope,
  input: ContentQueryInput,
  options: DeliveryOptions = {},
): Promise<Schemas['ManagedContentDeliveryDocumentCollection']> {
  const query = contentQueryOf(input);
  const { scope, column } = channelScopeOf(asked);
  // The channel and its page of items in one round trip: no row is no such channel (a 404); a channel with no
  // item on the page is one row whose content columns are null.
  const { rows: found } = await db.query<WithChannel<ContentRow | { [column in keyof ContentRow]: null }>>(
    `SELECT ${CHANNEL_COLUMNS}, c.* FROM cms_channel ch
     LEFT JOIN LATERAL (
       SELECT ${CONTENT_COLUMNS}
       FROM managed_content mc
       JOIN managed_content_channel cc ON cc.managed_content_id = mc.id AND cc.channel_id = ch.id
       LEFT JOIN managed_content_media m ON m.content_key = mc.content_key
       WHERE ($2::text[] IS NULL OR mc.content_key = ANY($2::text[]))
         AND ($3::text[] IS NULL OR mc.id = ANY($3::text[]))
         AND ($4::text IS NULL OR mc.content_type = $4::text)
         AND ($7::timestamptz IS NULL OR mc.published_date >= $7::timestamptz)
         AND ($8::timestamptz IS NULL OR mc.published_date <= $8::timestamptz)
       ORDER BY mc.id LIMIT $5 OFFSET $6
     ) c ON true
     WHERE ch.${column} = $1
     ORDER BY c.id`,
    [
      scope.id,
      query.contentKeys,
      query.managedContentIds,
      query.contentTypeFQN,
      query.pageSize + 1,
      query.page * query.pageSize,
      query.publishStartDate,
      query.publishEndDate,
    ],
    { prepareAs: `managed_contents_by_${column}` },
  );
  if (found.length === 0) throw notFound();
  const channel = channelOfRow(found[0]);
  const rows = found.filter((row): row is WithChannel<ContentRow> => row.id !== null);
  const hasNext = rows.length > query.pageSize;
  const pageRows = rows.slice(0, query.pageSize);
  const graph = await referenceGraph(db, channel.id, pageRows, query.referenceDepth);
  const context: DocumentContext = {
    scope,
    channel,
    origin: options.origin ?? null,
    includeContentBody: query.includeContentBody,
    graph,
    presentation: query,
  };
  return {
    channelSummary: channelSummary(channel, context.origin),
    contents: pageRows.map((row) => documentOf(row, context)),
    currentPageUrl: pageUrl(scope, query, query.page),
    nextPageUrl: hasNext ? pageUrl(scope, query, query.page + 1) : null,
    previousPageUrl: query.page > 0 ? pageUrl(scope, query, query.page - 1) : null,
    ...referencesOf(pageRows, context),
  };
}
