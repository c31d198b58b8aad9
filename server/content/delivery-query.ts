/**
 * What a content delivery call asks: its parameters checked (a 400 in the platform's shape for one out of
 * range) and read into a query, and a query written back as the URL of one of its pages.
 */
import { PlatformError } from '../platform/core/errors.ts';
import { toId18 } from '../platform/core/ids.ts';
import { CONNECT_PATH } from '../../common/platform.ts';

export const CONTENT_KEY = /^MC[A-Z0-9]{26}$/;

const MAX_CONTENT_KEYS = 50;
const MAX_MANAGED_CONTENT_IDS = 100;
const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 250;
const MAX_PAGE_SIZE_WITH_BODY = 25;
const MAX_REFERENCE_DEPTH = 3;
/** Where media is served: the site's prefix, before the media path. */
export const SITE_PREFIX = '/sfsites/c';
const LOCALE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

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
  expandReferences?: boolean;
  referencesAsList?: boolean;
  showAbsoluteUrl?: boolean;
  language?: string;
  publishStartDate?: string;
  publishEndDate?: string;
}

/** How referred items and media URLs are shown, for one item or a collection. */
export interface Presentation {
  referenceDepth: number;
  expandReferences: boolean;
  referencesAsList: boolean;
  showAbsoluteUrl: boolean;
  language: string | null;
}

interface ContentQuery extends Presentation {
  contentKeys: string[] | null;
  managedContentIds: string[] | null;
  contentTypeFQN: string | null;
  page: number;
  pageSize: number;
  includeContentBody: boolean;
  publishStartDate: string | null;
  publishEndDate: string | null;
}

const illegal = (name: string, value: unknown, why: string) =>
  new PlatformError(
    400,
    'ILLEGAL_QUERY_PARAMETER_VALUE',
    `Illegal value for query parameter '${name}': ${String(value)} (${why})`,
  );

function csv(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  return [
    ...new Set(
      text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

function checkInteger(name: string, value: number, min: number, max: number) {
  if (!Number.isInteger(value) || value < min || value > max)
    throw illegal(name, value, `a whole number from ${min} to ${max}`);
}

/** An ISO 8601 date or date-time as an instant, or a 400 naming the parameter. */
function instantOf(name: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  // Date.parse rolls an impossible day (February 31) over into the next month.
  const realDay = day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
  const time = ISO_DATE.test(value) && realDay ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw illegal(name, value, 'an ISO 8601 date or date-time');
  return new Date(time).toISOString();
}

/** Checks the presentation options shared by one-item and collection requests. */
export function presentationOf(
  input: Pick<
    ContentQueryInput,
    'referenceDepth' | 'expandReferences' | 'referencesAsList' | 'showAbsoluteUrl' | 'language'
  >,
): Presentation {
  const referenceDepth = input.referenceDepth ?? 0;
  checkInteger('referenceDepth', referenceDepth, 0, MAX_REFERENCE_DEPTH);
  if (input.language !== undefined && !LOCALE.test(input.language))
    throw illegal('language', input.language, 'a locale such as en_US');
  return {
    referenceDepth,
    expandReferences: input.expandReferences ?? false,
    referencesAsList: input.referencesAsList ?? false,
    showAbsoluteUrl: input.showAbsoluteUrl ?? false,
    language: input.language ?? null,
  };
}

/** Checks and completes the options of a collection request with the platform's defaults and limits. */
export function contentQueryOf(input: ContentQueryInput): ContentQuery {
  const contentKeys = csv(input.contentKeys);
  const ids = csv(input.managedContentIds);
  if (contentKeys && ids)
    throw illegal('managedContentIds', input.managedContentIds, 'give contentKeys or managedContentIds, not both');
  if (contentKeys && contentKeys.length > MAX_CONTENT_KEYS)
    throw illegal('contentKeys', `${contentKeys.length} keys`, `at most ${MAX_CONTENT_KEYS}`);
  for (const key of contentKeys ?? [])
    if (!CONTENT_KEY.test(key)) throw illegal('contentKeys', key, 'not a content key');
  if (ids && ids.length > MAX_MANAGED_CONTENT_IDS)
    throw illegal('managedContentIds', `${ids.length} ids`, `at most ${MAX_MANAGED_CONTENT_IDS}`);
  const managedContentIds =
    ids?.map((id) => {
      const id18 = toId18(id);
      if (!id18)
        throw new PlatformError(
          400,
          'INVALID_ID_FIELD',
          `Illegal value for query parameter 'managedContentIds': ${id}`,
        );
      return id18;
    }) ?? null;
  const includeContentBody = input.includeContentBody ?? false;
  const page = input.page ?? 0;
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  checkInteger('page', page, 0, 100_000);
  checkInteger('pageSize', pageSize, 1, MAX_PAGE_SIZE);
  if (includeContentBody && pageSize > MAX_PAGE_SIZE_WITH_BODY)
    throw illegal('pageSize', pageSize, `at most ${MAX_PAGE_SIZE_WITH_BODY} with includeContentBody=true`);
  if (input.expandReferences && pageSize > MAX_PAGE_SIZE_WITH_BODY)
    throw illegal('pageSize', pageSize, `at most ${MAX_PAGE_SIZE_WITH_BODY} with expandReferences=true`);
  const presentation = presentationOf(input);
  const publishStartDate = instantOf('publishStartDate', input.publishStartDate);
  const publishEndDate = instantOf('publishEndDate', input.publishEndDate);
  if (publishStartDate && publishEndDate && publishEndDate < publishStartDate)
    throw illegal('publishEndDate', input.publishEndDate, 'not before publishStartDate');
  return {
    contentKeys,
    managedContentIds,
    contentTypeFQN: input.contentTypeFQN ?? null,
    page,
    pageSize,
    includeContentBody,
    publishStartDate,
    publishEndDate,
    ...presentation,
  };
}

/** The server-relative URL of a page of a collection, its query parameters in alphabetical order. */
export function pageUrl(scope: DeliveryScope, query: ContentQuery, page: number): string {
  const params: [string, string][] = [];
  if (query.contentKeys) params.push(['contentKeys', query.contentKeys.join(',')]);
  if (query.contentTypeFQN) params.push(['contentTypeFQN', query.contentTypeFQN]);
  if (query.expandReferences) params.push(['expandReferences', 'true']);
  if (query.includeContentBody) params.push(['includeContentBody', 'true']);
  if (query.language) params.push(['language', query.language]);
  if (query.managedContentIds) params.push(['managedContentIds', query.managedContentIds.join(',')]);
  params.push(['page', String(page)], ['pageSize', String(query.pageSize)]);
  if (query.publishEndDate) params.push(['publishEndDate', query.publishEndDate]);
  if (query.publishStartDate) params.push(['publishStartDate', query.publishStartDate]);
  if (query.referenceDepth > 0) params.push(['referenceDepth', String(query.referenceDepth)]);
  if (query.referencesAsList) params.push(['referencesAsList', 'true']);
  if (query.showAbsoluteUrl) params.push(['showAbsoluteUrl', 'true']);
  return `${contentsPath(scope)}?${params.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')}`;
}

export function contentsPath(scope: DeliveryScope): string {
  return scope.kind === 'site'
    ? `${CONNECT_PATH}/sites/${scope.id}/cms/delivery/contents`
    : `${CONNECT_PATH}/cms/delivery/channels/${scope.id}/contents`;
}
