/** Attaches the contract-driven middleware of an operation to its generated route definition. */
import type { RouteConfig } from '@hono/zod-openapi';
import { cacheFor, noCache } from './cache.ts';

export function operation<R extends RouteConfig>(route: R): R {
  const ttl = (route as { 'x-cache-ttl'?: number })['x-cache-ttl'];
  const middleware = route.method === 'get' && typeof ttl === 'number' ? cacheFor(ttl) : noCache;
  return { ...route, middleware: [middleware] };
}
