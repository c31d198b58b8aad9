/** Storefront: the product's server methods on the Apex transport. */
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { Database } from '../db/connection.ts';
import { routes } from '../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { operation } from '../http/operation.ts';
import { requestHeader } from '../http/request-header.ts';
import { invokeApex, parseMethodParams, prepareApex } from '../storefront/apex.ts';
import { jsonTextOf } from '../storefront/json-text.ts';
import { acceptsGzip, gzipEtag, gzippedBody, locatorResultCache, type ResultCache, type SerializedAnswer } from '../storefront/result-cache.ts';

const CONTROLLER = 'APT_ContactUsController';

/** The path and query of a request URL. */
function requestTarget(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/** The headers and body of a cached answer, gzipped when the client accepts it. */
function encoded(c: Context, answer: SerializedAnswer, cacheControl?: string): { body: Uint8Array<ArrayBuffer>; headers: Record<string, string> } {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Vary: 'Accept-Encoding' };
  if (cacheControl) headers['Cache-Control'] = cacheControl;
  if (acceptsGzip(requestHeader(c, 'accept-encoding'))) {
    headers['Content-Encoding'] = 'gzip';
    headers.ETag = gzipEtag(answer.etag);
    return { body: gzippedBody(answer) as Uint8Array<ArrayBuffer>, headers };
  }
  headers.ETag = answer.etag;
  return { body: answer.body as Uint8Array<ArrayBuffer>, headers };
}

export function storefrontRoutes(db: Database, results: ResultCache = locatorResultCache(db)) {
  const app = new OpenAPIHono({ defaultHook: validationHook });

  const respond = (c: Context, answer: SerializedAnswer) => {
    const { body, headers } = encoded(c, answer);
    return c.body(body, 200, headers);
  };

  /** A cacheable call by GET: the answer from the result cache, with the ETag it was stored with. */
  const answer = async (c: Context, className: string, methodName: string, params: unknown) => {
    const call = prepareApex(className, methodName, params, 'GET');
    return respond(c, await results.answer(call.key, () => call.run(db), requestTarget(c.req.url)));
  };

  /**
   * First of all, before the request is validated and parsed again: the answer to the same path and query,
   * when the cache holds it (that request was valid then; its headers, checked here, cannot make it invalid
   * now). The headers are the ones cacheFor gives; a conditional request goes the whole way, to cacheFor.
   */
  const replayable = <R extends RouteConfig>(route: R): R => {
    const withHeaders = operation(route);
    const cacheControl = `private, max-age=${Math.floor(Number((route as { 'x-cache-ttl'?: number })['x-cache-ttl']) / 1000)}`;
    const replay: MiddlewareHandler = async (c, next) => {
      const continuation = requestHeader(c, 'x-sfdc-allow-continuation');
      if ((continuation === undefined || continuation === 'true' || continuation === 'false') && requestHeader(c, 'if-none-match') === undefined) {
        const cached = results.replay(requestTarget(c.req.url));
        if (cached) {
          // A Response with plain headers: the server writes it without building a Headers object.
          const { body, headers } = encoded(c, cached, cacheControl);
          return new Response(body, { status: 200, headers });
        }
      }
      await next();
    };
    return { ...withHeaders, middleware: [replay, ...[withHeaders.middleware ?? []].flat()] };
  };

  app.openapi(replayable(routes.getDefaultContacts), (c) => answer(c, CONTROLLER, 'getDefaultContacts', {}));

  app.openapi(replayable(routes.getDependentStatePicklistsValues), (c) => answer(c, CONTROLLER, 'getDependentStatePicklistsValues', {}));

  app.openapi(replayable(routes.getContacts), (c) => answer(c, CONTROLLER, 'getContacts', parseMethodParams(c.req.valid('query').methodParams)));

  app.openapi(replayable(routes.invokeApexCacheable), (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    return answer(c, apexClass, apexMethod, parseMethodParams(c.req.valid('query').methodParams));
  });

  app.openapi(operation(routes.invokeApexImperative), async (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    // An absent body means no arguments; a present one was checked against ApexMethodParams.
    const hasBody = Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
    const params = hasBody ? c.req.valid('json') : {};
    const { value } = await invokeApex(db, apexClass, apexMethod, params, 'POST');
    // Never cached: serialized (or passed through, when the database built the JSON) at every call.
    return c.body(jsonTextOf(value), 200, { 'Content-Type': 'application/json' }) as never;
  });

  return app;
}
