/** Storefront: the product's server methods on the Apex transport. */
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Schemas } from '../../generated/types.ts';
import { ContactsQuery } from '../../generated/schemas.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operation.ts';
import { cacheControlFor, cacheTtlOf, varyWithSession } from '../http/cache.ts';
import { countGuestRequest, type RequestLimits } from '../http/limits.ts';
import { clientScheme, incomingHeader, requestHeader, requestTarget } from '../http/request-header.ts';
import { apiSecurityHeaders } from '../http/security-headers.ts';
import { carriesSessionCookie } from '../http/session.ts';
import { serializedJson } from '../http/serialized-json.ts';
import { apexCallKey, invokeApex, parseMethodParams, prepareApex } from '../storefront/apex.ts';
import { jsonTextOf, type JsonText } from '../../common/json-text.ts';
import { getContacts, getDefaultContacts, getDependentStatePicklistsValues } from '../storefront/locator.ts';
import { acceptsGzip, gzipEtag, gzippedBody } from '../http/compression.ts';
import { locatorResultCache, type ResultCache, type SerializedAnswer } from '../cache/result-cache.ts';

const CONTROLLER = 'APT_ContactUsController';
/** The Vary cacheFor gives these answers: they are the same for every caller, but its rule holds for all. */
const VARY = varyWithSession('Accept-Encoding');

/** The headers and body of a cached answer, gzipped when the client accepts it. */
function encoded(answer: SerializedAnswer<unknown>, gzip: boolean): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const json = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  return gzip
    ? { body: gzippedBody(answer) as Uint8Array<ArrayBuffer>, headers: { ...json, 'Content-Encoding': 'gzip', ETag: gzipEtag(answer.etag) } }
    : { body: answer.body as Uint8Array<ArrayBuffer>, headers: { ...json, ETag: answer.etag } };
}

/** acceptsGzip of the Accept-Encoding seen last: clients send few distinct ones, browsers one each. */
let lastAcceptEncoding: string | undefined;
let lastAcceptsGzip = false;
function gzipAccepted(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding !== lastAcceptEncoding) {
    lastAcceptEncoding = acceptEncoding;
    lastAcceptsGzip = acceptsGzip(acceptEncoding);
  }
  return lastAcceptsGzip;
}

/** The operations answered from the result cache, and so at the front of the app. */
const REPLAYABLE = ['getDefaultContacts', 'getDependentStatePicklistsValues', 'getContacts', 'invokeApexCacheable'] as const;

/** The whole answer at the front: body, and every header the whole way would send. */
interface FrontAnswer {
  body: Uint8Array<ArrayBuffer>;
  headers: Readonly<Record<string, string>>;
  cacheControl: string;
}

/**
 * The front of the app: a GET that a cacheable server method answered before (so it was valid then) is
 * answered again from the result cache's current entry, before routing, the gate and the middleware chain. Such an
 * answer needs little of what they do, and this does it: the guest rate limit, the security headers, and
 * the Cache-Control, Vary and ETag the whole way gives (tests/contract/locator-front.test.ts compares the
 * two header by header). A request carrying a session cookie, a conditional one, one whose continuation
 * header is not true or false, or one the cache cannot answer goes the whole way.
 */
export function cachedAnswerFront(results: ResultCache, limits: RequestLimits) {
  for (const operationId of REPLAYABLE) {
    if (!limits.guestOperations.has(operationId)) throw new Error(`${operationId} is answered at the front of the app, so it must be callable by guests`);
  }
  /** Per answer, its four forms (gzipped or not, over HTTPS or not), made once each. */
  const forms = new WeakMap<SerializedAnswer, (FrontAnswer | undefined)[]>();
  const formOf = (answer: SerializedAnswer, cacheControl: string, gzip: boolean, https: boolean): FrontAnswer => {
    let made = forms.get(answer);
    if (!made) forms.set(answer, (made = []));
    const index = (gzip ? 2 : 0) + (https ? 1 : 0);
    const form = made[index];
    if (form?.cacheControl === cacheControl) return form;
    const { body, headers } = encoded(answer, gzip);
    return (made[index] = { body, cacheControl, headers: { ...headers, Vary: VARY, 'Cache-Control': cacheControl, ...apiSecurityHeaders(https) } });
  };

  return (request: Request, env: unknown): Response | undefined => {
    if (request.method !== 'GET' || !results.enabled) return undefined;
    const continuation = incomingHeader(request, env, 'x-sfdc-allow-continuation');
    if (continuation !== undefined && continuation !== 'true' && continuation !== 'false') return undefined;
    if (incomingHeader(request, env, 'if-none-match') !== undefined) return undefined;
    if (carriesSessionCookie(incomingHeader(request, env, 'cookie'))) return undefined;
    const target = requestTarget(request, env);
    if (!results.knows(target)) return undefined;
    // Counted once: if the entry is gone by now, the limits middleware does not count the request again.
    if (countGuestRequest(limits, request, env)) return undefined;
    const replayed = results.replay(target);
    if (!replayed) return undefined;
    const gzip = gzipAccepted(incomingHeader(request, env, 'accept-encoding'));
    const { body, headers } = formOf(replayed.answer, replayed.cacheControl, gzip, clientScheme(request, env, limits.trustProxy) === 'https');
    // A Response with plain headers, which @hono/node-server writes as they are (it copies them to add a length).
    return new Response(body, { status: 200, headers });
  };
}

/** The Cache-Control cacheFor gives a route's answers, from its x-cache-ttl. */
function cacheControlOf(route: RouteConfig): string {
  const ttl = cacheTtlOf(route);
  if (ttl === undefined) throw new Error(`${route.path} has no x-cache-ttl, so its answers cannot be replayed`);
  return cacheControlFor(ttl);
}

export function storefrontRoutes(db: Database, results: ResultCache = locatorResultCache(db)) {
  const app = new OpenAPIHono({ defaultHook: validationHook });

  /**
   * A cacheable call by GET on route: the answer from the result cache (compute() when it holds none), with
   * the ETag it was stored with, gzipped when the client accepts it.
   */
  const cachedAnswer = (route: RouteConfig) => {
    const cacheControl = cacheControlOf(route);
    return async <T>(c: Context, key: string, compute: () => Promise<T | JsonText<T>>) => {
      const request = { target: requestTarget(c.req.raw, c.env), cacheControl };
      const { body, headers } = encoded(await results.answer(key, compute, request), acceptsGzip(requestHeader(c, 'accept-encoding')));
      return serializedJson<T>(c, body, headers);
    };
  };

  const defaultContacts = cachedAnswer(routes.getDefaultContacts);
  implement(app, routes.getDefaultContacts, (c) => defaultContacts(c, apexCallKey(CONTROLLER, 'getDefaultContacts', {}), () => getDefaultContacts(db)));

  const statePicklists = cachedAnswer(routes.getDependentStatePicklistsValues);
  implement(app, routes.getDependentStatePicklistsValues, (c) =>
    statePicklists(c, apexCallKey(CONTROLLER, 'getDependentStatePicklistsValues', {}), () => getDependentStatePicklistsValues(db)),
  );

  const contacts = cachedAnswer(routes.getContacts);
  implement(app, routes.getContacts, (c) => {
    // methodParams is the JSON of the arguments, parsed and checked against ContactsQuery by the route. The
    // platform's client leaves it out when there are no arguments: every argument is then null.
    const query = c.req.valid('query').methodParams ?? ContactsQuery.parse({});
    return contacts(c, apexCallKey(CONTROLLER, 'getContacts', query), () => getContacts(db, query));
  });

  const cacheable = cachedAnswer(routes.invokeApexCacheable);
  implement(app, routes.invokeApexCacheable, (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    const call = prepareApex(apexClass, apexMethod, parseMethodParams(c.req.valid('query').methodParams), 'GET');
    return cacheable(c, call.key, () => call.run(db));
  });

  implement(app, routes.invokeApexImperative, async (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    // No body means no arguments (the validator gives {}); the platform's client sends none for a method without.
    const { value } = await invokeApex(db, apexClass, apexMethod, c.req.valid('json'), 'POST');
    // Never cached: serialized (or passed through, when the database built the JSON) at every call.
    return serializedJson<Schemas['ApexMethodResult']>(c, jsonTextOf(value), { 'Content-Type': 'application/json' });
  });

  return app;
}
