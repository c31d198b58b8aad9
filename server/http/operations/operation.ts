/**
 * Implements an operation of the contract on an app: its generated route definition, the middleware the
 * contract implies (a user required, cache headers), and a handler the compiler holds to the contract.
 */
import type { OpenAPIHono, RouteConfig, RouteConfigToTypedResponse, RouteHandler } from '@hono/zod-openapi';
import type { Context, Env, Handler, MiddlewareHandler, TypedResponse } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { StatusCode } from 'hono/utils/http-status';
import { z } from '@hono/zod-openapi';
import { operationTable, type ContractOperation, type OperationId } from '../../../generated/operations.ts';
import { PlatformError } from '../../platform/core/errors.ts';
import { cacheFor, noCache } from '../answers/cache-headers.ts';
import { announceDeprecation } from '../answers/deprecation.ts';
import { validationHook, type ValidationResult } from '../errors.ts';
import { principalOf, type AppEnv } from '../sessions/principal.ts';
import { findUnstorableText, unstorableReason } from './storable-text.ts';
import { JSON_TOO_DEEP_MESSAGE, jsonNestingExceeds } from '../../../common/json-nesting.ts';

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

const INVALID_SESSION_MESSAGE = 'Session expired or invalid';

/** A guest (no session, or one that ended) gets the platform's 401 before anything else is looked at. */
const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.var.principal.isGuest) throw new PlatformError(401, 'INVALID_SESSION_ID', INVALID_SESSION_MESSAGE);
  await next();
};

/** Hands every operation's handler its caller's principal, the Hono way (c.var.principal). */
const setPrincipal: MiddlewareHandler<AppEnv> = (c, next) => {
  c.set('principal', principalOf(c));
  return next();
};

/**
 * The middleware the contract gives an operation: the headers of its deprecation where it or a parameter is
 * deprecated, its caller's principal, a user required where the contract requires one, then its cache headers,
 * unless the handler sets its own.
 */
export function middlewareOf(operationId: OperationId, ownCacheHeaders = false): MiddlewareHandler<AppEnv>[] {
  const row: ContractOperation = operationTable[operationId];
  const { method, cacheTtl, guest } = row;
  const deprecated = row.deprecation || row.deprecatedParameters ? [announceDeprecation(operationId, row)] : [];
  const user = guest ? [...deprecated, setPrincipal] : [...deprecated, setPrincipal, requireUser];
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
type DeclaredResponse<R extends RouteConfig> =
  | RouteConfigToTypedResponse<R>
  | ([BodylessStatus<R>] extends [never] ? never : Response & TypedResponse<null, BodylessStatus<R>, 'body'>);

type PathOf<R extends RouteConfig> = RouteHandler<R> extends Handler<Env, infer P, infer _I, infer _R> ? P : never;
type InputOf<R extends RouteConfig> = RouteHandler<R> extends Handler<Env, infer _P, infer I, infer _R> ? I : never;

/** A handler of route, held by the compiler to the statuses and bodies the contract declares for it. */
type DeclaredHandler<R extends RouteConfig> = Handler<
  AppEnv,
  PathOf<R>,
  InputOf<R>,
  DeclaredResponse<R> | Promise<DeclaredResponse<R>>
>;

/** Answers a failed request validation (the app's default hook does unless an operation has its own). */
export type ValidationHook = (
  result: ValidationResult,
  c: Context,
) => Response | undefined | Promise<Response | undefined>;

interface ImplementOptions {
  /** The operation's own answer to a request that fails validation. */
  hook?: ValidationHook;
  /** The handler sets its own Cache-Control and ETag (media, whose URLs name a version), not the x-cache-ttl's. */
  ownCacheHeaders?: boolean;
}

/**
 * The one JSON media type a body is taken as: application/json, with no parameter but charset=utf-8. Other
 * +json types, and other charsets (whose bytes would be read as UTF-8 anyway), are 415.
 */
const JSON_CONTENT_TYPE = /^application\/json[ \t]*(?:;[ \t]*charset[ \t]*=[ \t]*(?:utf-8|"utf-8")[ \t]*)?$/i;

function isJsonContentType(contentType: string): boolean {
  return JSON_CONTENT_TYPE.test(contentType.trim());
}

/** The answer to a required body that is absent or empty (the platform's words for it). */
export const BODY_REQUIRED_MESSAGE = 'The HTTP entity body is required, but this request has no entity body.';

/**
 * The rules every operation that takes a JSON body shares, before the contract's validation reads it:
 * - a Content-Type other than JSON is 415;
 * - an absent or empty body (whitespace only) is 400 where the contract requires one, and no body at all where
 *   it does not, whatever Content-Type came with it (the platform's client sends one on every call);
 * - a body nested deeper than MAX_JSON_DEPTH is 400, before anything parses it.
 * The body is read as text once (the validator parses that text); a UTF-8 byte-order mark before it is
 * dropped, as every reader of a fetch body drops it.
 */
function jsonBodyRules(required: boolean): MiddlewareHandler {
  return async (c, next) => {
    const contentType = c.req.header('content-type');
    if (contentType !== undefined && !isJsonContentType(contentType))
      throw new HTTPException(415, { message: 'Unsupported Media Type' });
    // Read at once, never through request.body (which makes the Node adapter build a web Request around a stream).
    const text = await c.req.text();
    if (text.trim() === '') {
      if (required) throw new HTTPException(400, { message: BODY_REQUIRED_MESSAGE });
      if (contentType !== undefined) c.req.raw = withoutBody(c.req.raw);
    } else if (jsonNestingExceeds(text)) {
      throw new HTTPException(400, { message: JSON_TOO_DEEP_MESSAGE });
    }
    await next();
  };
}

/** The request without its (empty) body and the headers that describe one, which the validator then takes as no body. */
function withoutBody(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of ['content-type', 'content-length', 'transfer-encoding']) headers.delete(name);
  return new Request(request.url, { method: request.method, headers });
}

/** The parts of a request the contract's validators hand a handler. */
const VALIDATED_TARGETS = ['param', 'query', 'header', 'json'] as const;

/**
 * The rule for text every operation shares: a validated value that the database could not store (U+0000, a
 * lone surrogate), anywhere in the body, a parameter or a header, fails validation like any other value,
 * answered by the operation's own hook, so that it is a 400 in the operation's error shape naming the field.
 */
async function refuseUnstorableText(c: Context, hook: ValidationHook): Promise<Response | undefined> {
  for (const target of VALIDATED_TARGETS) {
    const value = (c.req.valid as (target: string) => unknown)(target);
    if (value === undefined) continue;
    const found = findUnstorableText(value);
    if (!found) continue;
    const error = new z.ZodError([
      { code: 'custom', path: found.path, message: unstorableReason(found.text), input: found.text },
    ]);
    return (
      (await hook({ success: false, error, target }, c)) ??
      (validationHook({ success: false, error, target }, c) as Response)
    );
  }
  return undefined;
}

/**
 * Validates the headers an operation declares, each read by name. The library's header validator reads all
 * of a request's headers, which makes @hono/node-server build the request's whole Headers object: for a
 * cacheable GET, whose only declared header is If-None-Match, that was a good part of its cost. Same schema,
 * same hook, same validated data.
 */
function headerValidator(schema: z.ZodObject, hook: ValidationHook): MiddlewareHandler {
  const names = Object.keys(schema.shape);
  return async (c, next) => {
    const value: Record<string, string> = {};
    for (const name of names) {
      const sent = c.req.header(name);
      if (sent !== undefined) value[name] = sent;
    }
    const result = await schema.safeParseAsync(value);
    const answer = await hook(
      result.success ? { success: true } : { success: false, error: result.error, target: 'header' },
      c,
    );
    if (answer) return answer;
    if (!result.success)
      return validationHook({ success: false, error: result.error, target: 'header' }, c) as Response;
    c.req.addValidatedData('header', result.data as Record<string, unknown>);
    await next();
  };
}

/** Serves route on app with handler, behind the middleware the contract gives it. */
export function implement<R extends RouteConfig & { operationId: OperationId }>(
  app: OpenAPIHono<AppEnv>,
  route: R,
  handler: DeclaredHandler<R>,
  options: ImplementOptions = {},
): void {
  const body = route.request?.body as { required?: boolean; content?: Record<string, unknown> } | undefined;
  const takesJson = Boolean(body?.content?.['application/json']);
  // After the user check: a guest learns that it must sign in before anything about its body.
  const hook: ValidationHook = options.hook ?? validationHook;
  const headers = route.request?.headers as z.ZodObject | undefined;
  const middleware = [
    ...middlewareOf(route.operationId, options.ownCacheHeaders),
    ...(takesJson ? [jsonBodyRules(body?.required === true)] : []),
    ...(headers ? [headerValidator(headers, hook)] : []),
  ];
  const checked: Handler = async (c, next) =>
    (await refuseUnstorableText(c, hook)) ?? (handler as unknown as Handler)(c, next);
  // DeclaredHandler answers a subset of what the library's handler type allows, and a hook answers what any
  // hook may; with R generic here the compiler cannot relate these to the library's conditional types.
  // The route as the contract has it describes the operation; its headers are validated by headerValidator.
  app.openAPIRegistry.registerPath(route);
  const served = headers ? { ...route, request: { ...route.request, headers: undefined } } : route;
  app.openapi({ ...served, middleware, hide: true }, checked as never, options.hook as never);
}
