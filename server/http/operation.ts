/**
 * Implements an operation of the contract on an app: its generated route definition, the middleware the
 * contract implies (a user required, cache headers), and a handler the compiler holds to the contract.
 */
import type { OpenAPIHono, RouteConfig, RouteConfigToTypedResponse, RouteHandler } from '@hono/zod-openapi';
import type { Context, Env, Handler, MiddlewareHandler, TypedResponse } from 'hono';
import type { StatusCode } from 'hono/utils/http-status';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import { PlatformError } from '../platform/errors.ts';
import { cacheFor, noCache } from './cache.ts';
import type { ValidationResult } from './errors.ts';
import { principalOf } from './principal.ts';

/** Whether only a signed-in user may call the operation: its contract security leaves out anonymous access ({}). */
export function requiresUser(route: { operationId?: string }): boolean {
  const row = operationTable[route.operationId as OperationId];
  if (!row) throw new Error(`${route.operationId} is not an operation of the contract`);
  return !row.guest;
}

/** A contract path as Hono routes it: {param} becomes :param. */
export function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

export const INVALID_SESSION_MESSAGE = 'Session expired or invalid';

/** A guest (no session, or one that ended) gets the platform's 401 before anything else is looked at. */
export const requireUser: MiddlewareHandler = async (c, next) => {
  if (principalOf(c).isGuest) throw new PlatformError(401, 'INVALID_SESSION_ID', INVALID_SESSION_MESSAGE);
  await next();
};

/**
 * The middleware the contract gives an operation: a user first where one is required, then its cache
 * headers, unless the handler sets its own.
 */
export function middlewareOf(operationId: OperationId, ownCacheHeaders = false): MiddlewareHandler[] {
  const { method, cacheTtl, guest } = operationTable[operationId];
  const user = guest ? [] : [requireUser];
  if (ownCacheHeaders) return user;
  // x-cache-ttl 0: an answer asked for afresh every time (the session), never kept.
  return [...user, method === 'get' && cacheTtl !== null && cacheTtl > 0 ? cacheFor(cacheTtl) : noCache];
}

/** The statuses a route declares without a body (204, 304). */
type BodylessStatus<R extends RouteConfig> = {
  [S in keyof R['responses']]: R['responses'][S] extends { content: object } ? never : S;
}[keyof R['responses']] &
  StatusCode;

/**
 * What a handler of route may answer: a body the contract declares for a status it declares, or no body for
 * a status declared without one. (The library's own handler type lets any Response through as soon as one
 * status has no body, which every cacheable GET has: its 304.)
 */
export type DeclaredResponse<R extends RouteConfig> =
  RouteConfigToTypedResponse<R> | ([BodylessStatus<R>] extends [never] ? never : Response & TypedResponse<null, BodylessStatus<R>, 'body'>);

type PathOf<R extends RouteConfig> = RouteHandler<R> extends Handler<Env, infer P, infer _I, infer _R> ? P : never;
type InputOf<R extends RouteConfig> = RouteHandler<R> extends Handler<Env, infer _P, infer I, infer _R> ? I : never;

/** A handler of route, held by the compiler to the statuses and bodies the contract declares for it. */
export type DeclaredHandler<R extends RouteConfig> = Handler<Env, PathOf<R>, InputOf<R>, DeclaredResponse<R> | Promise<DeclaredResponse<R>>>;

/** Answers a failed request validation (the app's default hook does unless an operation has its own). */
export type ValidationHook = (result: ValidationResult, c: Context) => Response | undefined | Promise<Response | undefined>;

export interface ImplementOptions {
  /** The operation's own answer to a request that fails validation. */
  hook?: ValidationHook;
  /** The handler sets its own Cache-Control and ETag (media, whose URLs name a version), not the x-cache-ttl's. */
  ownCacheHeaders?: boolean;
}

/** Serves route on app with handler, behind the middleware the contract gives it. */
export function implement<R extends RouteConfig & { operationId: OperationId }>(
  app: OpenAPIHono,
  route: R,
  handler: DeclaredHandler<R>,
  options: ImplementOptions = {},
): void {
  const middleware = middlewareOf(route.operationId, options.ownCacheHeaders);
  // DeclaredHandler answers a subset of what the library's handler type allows, and a hook answers what any
  // hook may; with R generic here the compiler cannot relate these to the library's conditional types.
  app.openapi({ ...route, middleware }, handler as unknown as RouteHandler<R>, options.hook as never);
}
