/**
 * Deprecations that announce themselves: an answer of an operation the contract marks `deprecated: true`, or to a
 * request that sends a parameter it marks so, carries `Deprecation` (RFC 9745: since when, `@` and seconds since
 * the epoch), `Sunset` (RFC 8594: the day it goes, an HTTP date) when the contract sets x-sunset, and a `Link` to
 * the operation on the docs page with the relation `deprecation`. The dates are the contract's
 * (x-deprecated-since, x-sunset), read from the operation table.
 */
import type { MiddlewareHandler } from 'hono';
import type { ContractOperation } from '../../../generated/operations.ts';

type Deprecation = NonNullable<ContractOperation['deprecation']>;
type Row = Pick<ContractOperation, 'tag' | 'deprecation' | 'deprecatedParameters'>;

/** Where the docs page shows an operation (scripts/docs.ts: Redoc's addresses under /docs). */
export function docsHref(operationId: string, tag: string): string {
  return `/docs/${tag.trim().toLowerCase().replace(/\s+/g, '-')}/${operationId.toLowerCase()}`;
}

const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/**
 * The headers of a deprecation, or of several (an operation's and a parameter's): the earliest since and the
 * earliest sunset, since a consumer must act by the first.
 */
export function deprecationHeaders(
  operationId: string,
  tag: string,
  deprecations: readonly Deprecation[],
): Record<string, string> | undefined {
  if (deprecations.length === 0) return undefined;
  const since = Math.min(...deprecations.map((deprecation) => midnight(deprecation.since)));
  const sunsets = deprecations.flatMap((deprecation) => (deprecation.sunset ? [midnight(deprecation.sunset)] : []));
  return {
    Deprecation: `@${since / 1000}`,
    ...(sunsets.length ? { Sunset: new Date(Math.min(...sunsets)).toUTCString() } : {}),
    Link: `<${docsHref(operationId, tag)}>; rel="deprecation"; type="text/html"`,
  };
}

/** The deprecations a request meets: the operation's, and those of the deprecated parameters it sends. */
function deprecationsMet(row: Row, request: Request, pathParameters: Record<string, string>): Deprecation[] {
  const met: Deprecation[] = row.deprecation ? [row.deprecation] : [];
  if (!row.deprecatedParameters) return met;
  const query = new URL(request.url).searchParams;
  const cookies = request.headers.get('cookie') ?? '';
  for (const parameter of row.deprecatedParameters) {
    const sent =
      parameter.in === 'query'
        ? query.has(parameter.name)
        : parameter.in === 'header'
          ? request.headers.has(parameter.name)
          : parameter.in === 'path'
            ? parameter.name in pathParameters
            : cookies.split(';').some((pair) => pair.trim().startsWith(`${parameter.name}=`));
    if (sent) met.push(parameter);
  }
  return met;
}

/** The middleware that sets the headers on an operation's answer, when the operation or a parameter is deprecated. */
export function announceDeprecation(operationId: string, row: Row): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = deprecationHeaders(operationId, row.tag, deprecationsMet(row, c.req.raw, c.req.param()));
    for (const [name, value] of Object.entries(headers ?? {})) c.res.headers.set(name, value);
  };
}
