/**
 * A request header, read from Node's own parsed headers when the server runs on @hono/node-server: asking
 * the Request for one builds a whole Headers object first, which costs as much as answering from a cache.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/** What @hono/node-server passes as the app's env: the Node request and response, absent for in-process requests. */
export type NodeEnv = { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;

/** A header of a request the app is given, before any Context exists (the replay stage). */
export function incomingHeader(request: Request, env: unknown, name: Lowercase<string>): string | undefined {
  const incoming = (env as NodeEnv)?.incoming;
  if (!incoming) return request.headers.get(name) ?? undefined;
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  return incomingHeader(c.req.raw, c.env, name);
}

/**
 * The scheme the client used: a trusted proxy's word for it (the first value of X-Forwarded-Proto, http or
 * https), else the request URL's. HSTS, the session cookie's name and Secure flag, and the CSRF origin check
 * all ask this.
 */
export function clientScheme(request: Request, env: unknown, trustProxy: boolean): 'http' | 'https' {
  if (trustProxy) {
    const forwarded = incomingHeader(request, env, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded === 'https' || forwarded === 'http') return forwarded;
  }
  return request.url.startsWith('https:') ? 'https' : 'http';
}

/** clientScheme of the request a Context holds. */
export function clientSchemeOf(c: Context, trustProxy: boolean): 'http' | 'https' {
  return clientScheme(c.req.raw, c.env, trustProxy);
}

/**
 * The path and query of a request as the client sent them (as parsed by Node), or from its URL when the
 * request came in process: the same request always gives the same text.
 */
export function requestTarget(request: Request, env: unknown): string {
  const sent = (env as NodeEnv)?.incoming?.url;
  if (sent?.startsWith('/')) return sent;
  return targetOf(request.url);
}

/** The path and query of an absolute URL. */
export function targetOf(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}
