/**
 * The one stage before routing: a GET whose answer a cache holds is answered from it, without the router,
 * the middleware or the database; every other request goes on to the gate (server/app.ts). What the skipped
 * way would have done for such a GET is done here once, for every cache that replays: a conditional request
 * (If-None-Match) is left to the router, which answers 304; the public rate limit counts a guest-callable
 * operation; and the answer gets the headers the router's way gives it (replayedHeaders: cache, security and
 * deprecation headers), header for header
 * (tests/contract/locator-replay.test.ts and answer-cache.test.ts compare them).
 */
import { cacheHeaders } from '../answers/cache-headers.ts';
import { countGuestRequest, type RequestLimits } from '../limits/limits.ts';
import { clientScheme, incomingHeader } from '../connections/request-header.ts';
import { apiSecurityHeaders } from '../answers/security-headers.ts';
import { deprecationHeaders } from '../answers/deprecation.ts';
import { operationTable, type ContractOperation, type OperationId } from '../../../generated/operations.ts';

/** A cached answer to replay: its body and its representation's headers (Content-Type, ETag, Content-Encoding, Vary). */
export interface CachedAnswer {
  /** The operation it answers: its x-cache-ttl gives the Cache-Control, and whether a guest may call it the rate limit. */
  operationId: OperationId;
  body: Uint8Array<ArrayBuffer> | string;
  /** The same object for every replay of one form of one answer, so that its whole headers are made once. */
  headers: Readonly<Record<string, string>>;
}

/** A cache whose answers are replayed before routing. */
export interface ReplayableCache {
  /**
   * The answer to a GET (without If-None-Match) when the cache holds a current one for this caller, in the form
   * the client accepts; undefined to leave the request to the router.
   */
  replay(request: Request, env: unknown): CachedAnswer | undefined;
  /** Counts an answer replay() gave that was sent (one over the rate limit is left to the router). */
  replayed(): void;
}

/**
 * The headers of an answer from a cache: the representation's, the Cache-Control of the operation's x-cache-ttl,
 * Vary with Cookie (what a caller may see depends on its session), and the security headers: cacheHeaders and
 * apiSecurityHeaders, which cacheFor and the gate give an answer on the router's way.
 */
function replayedHeaders(
  operationId: OperationId,
  representation: Readonly<Record<string, string>>,
  https: boolean,
): Readonly<Record<string, string>> {
  const row: ContractOperation = operationTable[operationId];
  if (!row.cacheTtl) throw new Error(`${operationId} has no x-cache-ttl, so its answers cannot be replayed`);
  return {
    ...representation,
    ...cacheHeaders(row.cacheTtl, representation.ETag, representation.Vary),
    ...apiSecurityHeaders(https),
    ...deprecationHeaders(operationId, row.tag, row.deprecation ? [row.deprecation] : []),
  };
}

/** The replay stage over caches, asked in order; undefined leaves the request to the gate and the router. */
export function replayStage(
  caches: readonly ReplayableCache[],
  limits: RequestLimits,
): (request: Request, env: unknown) => Response | undefined {
  /** Per representation headers, the whole headers over HTTP and over HTTPS, made once each. */
  const whole = new WeakMap<
    object,
    [Readonly<Record<string, string>> | undefined, Readonly<Record<string, string>> | undefined]
  >();
  return (request, env) => {
    if (request.method !== 'GET' || incomingHeader(request, env, 'if-none-match') !== undefined) return undefined;
    for (const cache of caches) {
      const answer = cache.replay(request, env);
      if (!answer) continue;
      // Whether the request sends a deprecated parameter is the router's to find (announceDeprecation).
      if ((operationTable[answer.operationId] as ContractOperation).deprecatedParameters) return undefined;
      // Counted once: over the limit, the limits middleware counts it again and answers 429.
      if (operationTable[answer.operationId].guest && countGuestRequest(limits, request, env)) return undefined;
      const https = clientScheme(request, env, limits.trustProxy) === 'https';
      let forms = whole.get(answer.headers);
      if (!forms) whole.set(answer.headers, (forms = [undefined, undefined]));
      const headers = (forms[https ? 1 : 0] ??= replayedHeaders(answer.operationId, answer.headers, https));
      cache.replayed();
      // A Response with plain headers, which @hono/node-server writes as they are.
      return new Response(answer.body, { status: 200, headers });
    }
    return undefined;
  };
}
