/** Attaches the contract-driven middleware of an operation to its generated route definition. */
import type { RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { PlatformError } from '../platform/errors.ts';
import { cacheFor, cacheTtlOf, noCache } from './cache.ts';
import { principalOf } from './principal.ts';

/**
 * Whether the contract's security for the route leaves out anonymous access ({}): then only a signed-in
 * user may call it. A route without its own security has the document's, which lets guests in.
 */
export function requiresUser(route: RouteConfig): boolean {
  const security = (route as { security?: Record<string, string[]>[] }).security;
  return Array.isArray(security) && !security.some((requirement) => Object.keys(requirement).length === 0);
}

export const INVALID_SESSION_MESSAGE = 'Session expired or invalid';

/** A guest (no session, or one that ended) gets the platform's 401 before anything else is looked at. */
export const requireUser: MiddlewareHandler = async (c, next) => {
  if (principalOf(c).isGuest) throw new PlatformError(401, 'INVALID_SESSION_ID', INVALID_SESSION_MESSAGE);
  await next();
};

export function operation<R extends RouteConfig>(route: R): R {
  const ttl = cacheTtlOf(route);
  // x-cache-ttl 0: an answer asked for afresh every time (the session), never kept.
  const cache = route.method === 'get' && ttl !== undefined && ttl > 0 ? cacheFor(ttl) : noCache;
  return { ...route, middleware: requiresUser(route) ? [requireUser, cache] : [cache] };
}
