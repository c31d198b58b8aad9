/** The body-size check of the limits middleware (limits.ts). */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Hono's bodyLimit, but a body whose length the request declares (Content-Length, without Transfer-Encoding) is
 * checked by that alone, as Node's parser reads no more than that. Hono's asks for request.body first, which
 * makes the Node adapter build a whole web Request around a stream of the body, through which the body is then
 * read: a tenth of the server's CPU for an update (`npm run bench:api`'s contention, profiled).
 */
export function bodySizeCheck(
  maxSize: number,
  onError: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  const streamed = bodyLimit({ maxSize, onError });
  return (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined)
      return Number(length) > maxSize ? Promise.resolve(onError(c)) : next();
    return streamed(c, next);
  };
}
