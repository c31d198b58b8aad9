/**
 * A request header, read from Node's own parsed headers when the server runs on @hono/node-server: asking
 * the Request for one builds a whole Headers object first, which costs as much as answering from a cache.
 */
import type { Context } from 'hono';

export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = (c.env as { incoming?: { headers: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
