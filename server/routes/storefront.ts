/** Storefront: the product's server methods on the Apex transport. */
import type { AppEnv } from '../http/sessions/principal.ts';
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Schemas } from '../../generated/types.ts';
import { ContactsQuery } from '../../generated/schemas.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import type { CachedAnswer, ReplayableCache } from '../http/entry/replay.ts';
import { incomingHeader, requestHeader, requestTarget } from '../http/connections/request-header.ts';
import { carriesSessionCookie } from '../http/sessions/session.ts';
import { serializedJson } from '../http/answers/serialized-json.ts';
import { apexCallKey, invokeApex, parseMethodParams, prepareApex } from '../storefront/apex.ts';
import { jsonTextOf, type JsonText } from '../../common/json-text.ts';
import {
  getContact,
  getContacts,
  getDefaultContacts,
  getDependentStatePicklistsValues,
} from '../storefront/locator.ts';
import { getNearestContacts } from '../storefront/nearest.ts';
import { getPlaceSuggestions } from '../storefront/places.ts';
import { acceptsGzip, gzipEtag, gzippedBody } from '../http/answers/compression.ts';
import { locatorResultCache, type ResultCache, type SerializedAnswer } from '../cache/result-cache.ts';
import { inquiryForm, submitInquiry } from '../storefront/inquiry.ts';
import { systemClock, type Clock } from '../app-options.ts';

const CONTROLLER = 'APT_ContactUsController';
/** The headers and body of a cached answer, gzipped when the client accepts it. */
function encoded(
  answer: SerializedAnswer<unknown>,
  gzip: boolean,
): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const json = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  return gzip
    ? {
        body: gzippedBody(answer) as Uint8Array<ArrayBuffer>,
        headers: { ...json, 'Content-Encoding': 'gzip', ETag: gzipEtag(answer.etag) },
      }
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

/** The operations answered from the result cache, and so replayed before routing. */
const REPLAYABLE = [
  'getDefaultContacts',
  'getDependentStatePicklistsValues',
  'getContacts',
  'getContact',
  'getNearestContacts',
  'getPlaceSuggestions',
  'invokeApexCacheable',
] as const;

/**
 * The locator's cached answers, replayed before routing (server/http/entry/replay.ts): a GET that a cacheable server
 * method answered before (so it was valid then) is answered again from the result cache's current entry, gzipped
 * when the client accepts it. A request carrying a session cookie, or whose continuation header is not true or
 * false, goes through the router.
 */
export function locatorReplay(results: ResultCache): ReplayableCache {
  for (const operationId of REPLAYABLE) {
    if (!operationTable[operationId].guest)
      throw new Error(`${operationId} is replayed before routing, so it must be callable by guests`);
  }
  /** Per answer, its two forms (plain and gzipped), made once each. */
  const forms = new WeakMap<SerializedAnswer, [CachedAnswer | undefined, CachedAnswer | undefined]>();
  return {
    replay(request, env) {
      if (!results.enabled) return undefined;
      const continuation = incomingHeader(request, env, 'x-sfdc-allow-continuation');
      if (continuation !== undefined && continuation !== 'true' && continuation !== 'false') return undefined;
      if (carriesSessionCookie(incomingHeader(request, env, 'cookie'))) return undefined;
      const replayed = results.replay(requestTarget(request, env));
      if (!replayed) return undefined;
      const { answer, operationId } = replayed;
      const gzip = gzipAccepted(incomingHeader(request, env, 'accept-encoding'));
      let made = forms.get(answer);
      if (!made) forms.set(answer, (made = [undefined, undefined]));
      return (made[gzip ? 1 : 0] ??= { operationId, ...encoded(answer, gzip) });
    },
    replayed: () => void results.stats.replayed++,
  };
}

export function storefrontRoutes(
  db: Database,
  results: ResultCache = locatorResultCache(db),
  clock: Clock = systemClock,
) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  /**
   * A cacheable call by GET on route: the answer from the result cache (compute() when it holds none), with
   * the ETag it was stored with, gzipped when the client accepts it.
   */
  const cachedAnswer = (route: RouteConfig & { operationId: OperationId }) => {
    const { operationId } = route;
    return async <T>(c: Context, key: string, compute: () => Promise<T | JsonText<T>>) => {
      const request = { target: requestTarget(c.req.raw, c.env), operationId };
      const { body, headers } = encoded(
        await results.answer(key, compute, request),
        acceptsGzip(requestHeader(c, 'accept-encoding')),
      );
      return serializedJson<T>(c, body, headers);
    };
  };

  const defaultContacts = cachedAnswer(routes.getDefaultContacts);
  implement(app, routes.getDefaultContacts, (c) =>
    defaultContacts(c, apexCallKey(CONTROLLER, 'getDefaultContacts', {}), () => getDefaultContacts(db)),
  );

  const statePicklists = cachedAnswer(routes.getDependentStatePicklistsValues);
  implement(app, routes.getDependentStatePicklistsValues, (c) =>
    statePicklists(c, apexCallKey(CONTROLLER, 'getDependentStatePicklistsValues', {}), () =>
      getDependentStatePicklistsValues(db),
    ),
  );

  const contacts = cachedAnswer(routes.getContacts);
  implement(app, routes.getContacts, (c) => {
    // methodParams is the JSON of the arguments, parsed and checked against ContactsQuery by the route. The
    // platform's client leaves it out when there are no arguments: every argument is then null.
    const query = c.req.valid('query').methodParams ?? ContactsQuery.parse({});
    return contacts(c, apexCallKey(CONTROLLER, 'getContacts', query), () => getContacts(db, query));
  });

  // The inquiry's two methods, before the generic routes of any method, which would answer them otherwise.
  implement(app, routes.getInquiryForm, async (c) => c.json(await inquiryForm(db, clock.now()), 200));
  implement(app, routes.submitInquiry, async (c) =>
    c.json(await submitInquiry(db, c.var.principal, c.req.valid('json'), clock.now()), 200),
  );
  const contact = cachedAnswer(routes.getContact);
  implement(app, routes.getContact, (c) => {
    // methodParams is the JSON of the arguments, parsed and checked against ContactQuery by the route.
    const query = c.req.valid('query').methodParams;
    return contact(c, apexCallKey(CONTROLLER, 'getContact', query), () => getContact(db, query.recordId));
  });

  const nearest = cachedAnswer(routes.getNearestContacts);
  implement(app, routes.getNearestContacts, (c) => {
    // methodParams is required here: the point has no default.
    const query = c.req.valid('query').methodParams;
    return nearest(c, apexCallKey(CONTROLLER, 'getNearestContacts', query), () => getNearestContacts(db, query));
  });

  const placeSuggestions = cachedAnswer(routes.getPlaceSuggestions);
  implement(app, routes.getPlaceSuggestions, (c) => {
    const query = c.req.valid('query').methodParams;
    return placeSuggestions(c, apexCallKey(CONTROLLER, 'getPlaceSuggestions', query), () =>
      getPlaceSuggestions(db, query),
    );
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
