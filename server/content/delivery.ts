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

/**
 * The content keys a body refers to: fields whose value is a reference {contentKey, managedContentId}. The
 * queries that find the referred items read references by the same rule, in SQL (REFERS).
 */
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

/**
 * A field of a body that refers to other content, in SQL, as referencedKeys reads it: an object whose contentKey
 * and managedContentId are strings. `e.v` is the field's value (jsonb_each of the body).
 */
const REFERS = `jsonb_typeof(e.v) = 'object' AND jsonb_typeof(e.v -> 'contentKey') = 'string'
  AND jsonb_typeof(e.v -> 'managedContentId') = 'string'`;

/** The fields of a body, or none when it is not an object (jsonb_each would fail on it). */
const fieldsOf = (body: string) => `jsonb_each(CASE WHEN jsonb_typeof(${body}) = 'object' THEN ${body} ELSE '{}' END)`;

/**
 * The SQL that adds, to the rows of a query, the items they refer to, in the same round trip. The query names its
 * rows' channel and bodies in a CTE `roots (channel_id, content_body)`, after this fragment's `WITH RECURSIVE`;
 * `referred` then holds the content keys the roots refer to, up to `depth` levels (a parameter), each level the keys
 * the items of the level before refer to, among those published to the channel; and REFERRED_ROWS selects those
 * items, published to the channel, with the channel's and the content columns and `referred` true.
 */
function referredCte(depth: string): string {
  return `referred (content_key, level) AS (
    SELECT e.v ->> 'contentKey', 1 FROM roots CROSS JOIN LATERAL ${fieldsOf('roots.content_body')} AS e(k, v)
    WHERE ${depth} >= 1 AND ${REFERS}
    UNION
    SELECT e.v ->> 'contentKey', r.level + 1 FROM referred r
    JOIN managed_content mc ON mc.content_key = r.content_key
    JOIN managed_content_channel cc ON cc.managed_content_id = mc.id
      AND cc.channel_id = (SELECT channel_id FROM roots LIMIT 1)
    CROSS JOIN LATERAL ${fieldsOf('mc.content_body')} AS e(k, v)
    WHERE r.level < ${depth} AND ${REFERS}
  )`;
}

const REFERRED_ROWS = `SELECT true AS referred, ${CHANNEL_COLUMNS}, ${CONTENT_COLUMNS}
  FROM (SELECT DISTINCT content_key FROM referred) k
  JOIN managed_content mc ON mc.content_key = k.content_key
  JOIN managed_content_channel cc ON cc.managed_content_id = mc.id
    AND cc.channel_id = (SELECT channel_id FROM roots LIMIT 1)
  JOIN cms_channel ch ON ch.id = cc.channel_id
  LEFT JOIN managed_content_media m ON m.content_key = mc.content_key`;

/** A row of a query with referredCte: one of its own, or an item its rows refer to. */
type MaybeReferred<Row> = WithChannel<Row> & { referred: boolean };

/** The query's own rows, and the items they refer to by content key. */
function splitReferred<Row>(rows: MaybeReferred<Row>[]): {
  own: MaybeReferred<Row>[];
  graph: Map<string, ContentRow>;
} {
  const own: MaybeReferred<Row>[] = [];
  const graph = new Map<string, ContentRow>();
  for (const row of rows) {
    if (!row.referred) own.push(row);
    else {
      const item = row as unknown as ContentRow;
      graph.set(item.content_key, item);
    }
  }
  return { own, graph };
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
  // The channel, the item and what it refers to in one round trip: no row is a 404 either way (no such channel, or
  // no such item in it).
  const { rows: found } = await db.query<MaybeReferred<ContentRow>>(
    `WITH RECURSIVE item AS (
       SELECT ${CHANNEL_COLUMNS}, ${CONTENT_COLUMNS} FROM cms_channel ch
       JOIN managed_content_channel cc ON cc.channel_id = ch.id
       JOIN managed_content mc ON mc.id = cc.managed_content_id
       LEFT JOIN managed_content_media m ON m.content_key = mc.content_key
       WHERE ch.${column} = $1 AND ${byKey ? 'mc.content_key' : 'mc.id'} = $2
     ),
     roots AS (SELECT channel_id, content_body FROM item),
     ${referredCte('$3::int')}
     SELECT false AS referred, item.* FROM item
     UNION ALL ${REFERRED_ROWS}`,
    [scope.id, byKey ? contentKeyOrId : id, presentation.referenceDepth],
    { prepareAs: `managed_content_by_${column}_${byKey ? 'key' : 'id'}` },
  );
  const { own: rows, graph } = splitReferred(found);
  if (rows.length === 0) throw notFound();
  const channel = channelOfRow(rows[0]);
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
  // The channel, its page of items and what they refer to in one round trip: no row of its own is no such channel
  // (a 404); a channel with no item on the page is one row whose content columns are null. The page is asked for
  // with one item more, which says whether a next page exists; what it refers to may be read too, but the answer's
  // references are walked from the page's own items (referencesOf).
  const { rows: found } = await db.query<MaybeReferred<ContentRow | { [column in keyof ContentRow]: null }>>(
    `WITH RECURSIVE page AS (
       SELECT ${CHANNEL_COLUMNS}, c.* FROM cms_channel ch
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
     ),
     roots AS (SELECT channel_id, content_body FROM page WHERE id IS NOT NULL),
     ${referredCte('$9::int')}
     SELECT false AS referred, page.* FROM page
     UNION ALL ${REFERRED_ROWS}
     ORDER BY referred, id`,
    [
      scope.id,
      query.contentKeys,
      query.managedContentIds,
      query.contentTypeFQN,
      query.pageSize + 1,
      query.page * query.pageSize,
      query.publishStartDate,
      query.publishEndDate,
      query.referenceDepth,
    ],
    { prepareAs: `managed_contents_by_${column}` },
  );
  const { own, graph } = splitReferred(found);
  if (own.length === 0) throw notFound();
  const channel = channelOfRow(own[0]);
  const rows = own.filter((row): row is MaybeReferred<ContentRow> => row.id !== null);
  const hasNext = rows.length > query.pageSize;
  const pageRows = rows.slice(0, query.pageSize);
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
