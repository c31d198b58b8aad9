/**
 * Pages of records. A page token is opaque to clients but is the zero-based offset of the page's first
 * record: with pageSize 3 the tokens are "0", "3", "6". The first page has no previous token and the last
 * no next one. Pages hold 1 to 2000 records and start at offset 2000 at most. Page URLs are server-relative
 * with their query parameters in alphabetical order, values URL-encoded (commas as %2C).
 */
import { illegalValue } from './errors.ts';

export const MAX_PAGE_SIZE = 2000;
export const MAX_OFFSET = 2000;
/** Default page sizes: list records and related lists 50, list view summaries 20, child records 5. */
export const LIST_RECORDS_PAGE_SIZE = 50;

/**
 * A pageSize parameter (a number, or the text of a query string); absent, the default. Anything but a whole
 * number from 1 to 2000 fails with ILLEGAL_QUERY_PARAMETER_VALUE.
 */
export function parsePageSize(raw: number | string | null | undefined, defaultSize: number): number {
  if (raw === undefined || raw === null) return defaultSize;
  const size = typeof raw === 'number' ? raw : /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw illegalValue(
      'pageSize',
      `${JSON.stringify(String(raw).slice(0, 20))} is not a whole number from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  return size;
}

/** The offset a page token stands for; absent, the first page. Only decimal digits up to 2000 are tokens. */
export function parsePageToken(raw: string | null | undefined): number {
  if (raw === undefined || raw === null) return 0;
  const offset = /^[0-9]{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(offset <= MAX_OFFSET))
    throw illegalValue(
      'pageToken',
      `${JSON.stringify(raw.slice(0, 20))} is not a page token (a record offset from 0 to ${MAX_OFFSET})`,
    );
  return offset;
}

interface PageTokens {
  currentPageToken: string;
  nextPageToken: string | null;
  previousPageToken: string | null;
}

/**
 * The tokens of the page at `offset`. `hasMore` says whether records follow this page; a next page that
 * would start past the offset limit cannot be asked for, so it has no token either.
 */
export function pageTokens(offset: number, pageSize: number, hasMore: boolean): PageTokens {
  const next = offset + pageSize;
  return {
    currentPageToken: String(offset),
    nextPageToken: hasMore && next <= MAX_OFFSET ? String(next) : null,
    previousPageToken: offset > 0 ? String(Math.max(0, offset - pageSize)) : null,
  };
}

/** A query parameter of a page URL: lists are comma-joined; absent values and empty lists are left out. */
export type UrlParameter = string | number | boolean | readonly string[] | null | undefined;

/** A page URL: the base path and the parameters, pageToken among them, in alphabetical order. */
export function pageUrl(basePath: string, parameters: Record<string, UrlParameter>, pageToken: string): string {
  return queryUrl(basePath, { ...parameters, pageToken });
}

/** A URL of the base path with the parameters in alphabetical order (absent values and empty lists left out). */
export function queryUrl(basePath: string, all: Record<string, UrlParameter>): string {
  const query = Object.keys(all)
    .sort()
    .flatMap((name) => {
      const value = all[name];
      if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return [];
      const text = Array.isArray(value) ? value.join(',') : String(value);
      return [`${encodeURIComponent(name)}=${encodeURIComponent(text)}`];
    })
    .join('&');
  return `${basePath}?${query}`;
}

interface PageLinks extends PageTokens {
  currentPageUrl: string;
  nextPageUrl: string | null;
  previousPageUrl: string | null;
}

/** The tokens of a page and the URLs that fetch it and its neighbours with the same parameters. */
export function pageLinks(
  basePath: string,
  parameters: Record<string, UrlParameter>,
  offset: number,
  pageSize: number,
  hasMore: boolean,
): PageLinks {
  const tokens = pageTokens(offset, pageSize, hasMore);
  const url = (token: string | null) => (token === null ? null : pageUrl(basePath, { ...parameters, pageSize }, token));
  return {
    ...tokens,
    currentPageUrl: url(tokens.currentPageToken) as string,
    nextPageUrl: url(tokens.nextPageToken),
    previousPageUrl: url(tokens.previousPageToken),
  };
}

/**
 * Splits the rows of a query that asked for one row more than the page (select.ts does): the page, and
 * whether records follow it.
 */
export function splitLookahead<Row>(rows: Row[], pageSize: number): { rows: Row[]; hasMore: boolean } {
  return rows.length > pageSize ? { rows: rows.slice(0, pageSize), hasMore: true } : { rows, hasMore: false };
}
