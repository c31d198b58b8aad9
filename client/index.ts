import { CSRF_HEADER } from '../common/platform';
import { getCsrfToken } from '../generated/operations';
import createClient, { type HeadersOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/types';
import type { ApiClient } from './call';
import { isApexPath, isContractErrorBody, isErrorList, synthesizeErrorBody } from './errors';

export type { components, operations, paths } from '../generated/types';
export { operationTable } from '../generated/operations';
export {
  ApiError,
  errorMessageOf,
  isApexError,
  isApiError,
  isErrorList,
  isRecordWriteError,
  type ApexErrorRepresentation,
  type ApiErrorBody,
  type ErrorList,
  type ErrorRepresentation,
  type OperationError,
  type OperationErrorBody,
  type OperationFailure,
  type OperationId,
  type RecordWriteError,
} from './errors';
export { RETRY, send, type ApiClient, type CallOptions, type Input, type Output } from './call';
export { conditionalGetMiddleware } from './conditional';
export * from '../generated/client';

type Schemas = components['schemas'];
export type DefaultContact = Schemas['DefaultContact'];
export type DefaultContactList = Schemas['DefaultContactList'];
export type ContactUsCard = Schemas['ContactUsCard'];
export type ContactsQuery = Schemas['ContactsQuery'];
export type ContactsResult = Schemas['ContactsResult'];
export type CountryStatesMap = Schemas['CountryStatesMap'];
export type ObjectInfoRepresentation = Schemas['ObjectInfoRepresentation'];
export type PicklistValuesRepresentation = Schemas['PicklistValuesRepresentation'];
export type PicklistValueRepresentation = Schemas['PicklistValueRepresentation'];

export interface ApiClientOptions {
  /** Origin (and optional prefix) of the API; '' for same-origin requests in the browser. */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (server-side rendering, tests). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request, e.g. a forwarded cookie during server-side rendering. */
  headers?: HeadersOptions;
  /**
   * Whether to send the session's CSRF token on state-changing calls (default true). A caller that knows it has
   * no session (a guest's page) may say false: there is no token to fetch, and the browser's Origin is the proof.
   */
  csrf?: boolean;
  /**
   * More openapi-fetch middleware, which sees each request first and its answer last. Outside a browser,
   * conditionalGetMiddleware() makes GETs conditional on the ETag of a kept body; a browser's HTTP cache does
   * that itself (and a request that carries If-None-Match bypasses it).
   */
  middleware?: readonly Middleware[];
  /**
   * The API version to call (`v55.0`): the server answers every version from v41.0 to v65.0, with the URLs in
   * its answers naming the version asked. By default v65.0, the version of the contract's paths.
   */
  apiVersion?: string;
}

/** Calls the versioned paths (/services/data/v65.0/…, /lwr/apex/v65.0/…) at another API version. */
function apiVersionMiddleware(version: string): Middleware {
  return {
    onRequest({ request }) {
      const url = request.url.replace(/\/(services\/data|lwr\/apex)\/v65\.0\//, `/$1/${version}/`);
      return url === request.url ? undefined : new Request(url, request);
    },
  };
}

/**
 * Makes sure every 4xx/5xx answer carries the contract's error shape for its transport, so that the
 * `error` openapi-fetch returns is what the generated types say it is even when something between
 * client and server (a proxy, a crashed upstream) answered with HTML or nothing.
 */
export const errorShapeMiddleware: Middleware = {
  async onResponse({ request, response }) {
    if (response.status < 400) return undefined;
    const apex = isApexPath(new URL(request.url, 'http://localhost').pathname);
    const text = await response.clone().text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (isContractErrorBody(apex, body)) return undefined;
    const message = response.statusText || `Request failed with status ${response.status}`;
    const headers = new Headers(response.headers);
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Length');
    headers.delete('Content-Encoding');
    return new Response(JSON.stringify(synthesizeErrorBody(apex, response.status, message)), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  },
};

const SESSION_PATH = '/services/auth/session';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isCsrfRefusal(body: unknown): boolean {
  return isErrorList(body) && body.some((error) => error.errorCode === 'CSRF_TOKEN_INVALID');
}

/**
 * Sends the session's CSRF token (X-CSRF-Token) on state-changing calls. The token is fetched once, the first
 * time one is needed, and kept until the session changes (sign-in, sign-out, a 401); a guest has none and
 * sends none. A call refused for its token (403 CSRF_TOKEN_INVALID) is retried once with a fresh token, since
 * the session may have changed in another tab.
 */
export function csrfMiddleware(
  baseUrl: string,
  fetchImpl: (input: Request) => Promise<Response> = (input) => globalThis.fetch(input),
): Middleware {
  let token: Promise<string | null> | undefined;
  const originals = new Map<string, Request>();
  /** The session's token, asked for with the session the call carries: the browser's cookie, or a Cookie header. */
  const loadToken = (call: Request) =>
    (token ??= fetchImpl(
      new Request(`${baseUrl}${getCsrfToken.path}`, {
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          ...(call.headers.has('Cookie') ? { Cookie: call.headers.get('Cookie')! } : {}),
        },
      }),
    )
      .then(async (response) =>
        response.ok ? (((await response.json()) as { csrfToken?: string }).csrfToken ?? null) : null,
      )
      .catch(() => {
        token = undefined;
        return null;
      }));
  const isSessionCall = (request: Request) => new URL(request.url, 'http://localhost').pathname.endsWith(SESSION_PATH);

  return {
    async onRequest({ request, id }) {
      if (!UNSAFE_METHODS.has(request.method)) return undefined;
      // Signing in needs no token: it replaces whatever session there was.
      if (request.method === 'POST' && isSessionCall(request)) return undefined;
      originals.set(id, request.clone());
      const value = await loadToken(request);
      if (value) request.headers.set(CSRF_HEADER, value);
      return request;
    },
    async onResponse({ request, response, id }) {
      const original = originals.get(id);
      originals.delete(id);
      if (isSessionCall(request) && (request.method === 'POST' || request.method === 'DELETE') && response.ok)
        token = undefined;
      if (response.status === 401) token = undefined;
      if (response.status !== 403 || !original) return undefined;
      const body: unknown = await response
        .clone()
        .json()
        .catch(() => undefined);
      if (!isCsrfRefusal(body)) return undefined;
      token = undefined;
      const fresh = await loadToken(original);
      if (!fresh) return undefined;
      original.headers.set(CSRF_HEADER, fresh);
      const retried = await fetchImpl(original);
      // Rebuilt with this realm's Response: openapi-fetch checks instanceof, and a server-side fetch may
      // answer with another implementation's (@hono/node-server replaces the global one).
      return new Response(retried.body, {
        status: retried.status,
        statusText: retried.statusText,
        headers: retried.headers,
      });
    },
    onError({ id }) {
      originals.delete(id);
    },
  };
}

export function createApiClient({
  baseUrl,
  fetch,
  headers,
  middleware = [],
  apiVersion,
  csrf = true,
}: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl,
    headers,
    // The session cookie goes with calls to the page's own origin only.
    credentials: 'same-origin',
    ...(fetch ? { fetch } : {}),
  });
  // Middleware sees the request in this order and the answer in the reverse one.
  client.use(...middleware);
  if (apiVersion) client.use(apiVersionMiddleware(apiVersion));
  client.use(errorShapeMiddleware);
  // Used last, so that its answer (a retried call's included) is the one the error-shape middleware sees.
  if (csrf) client.use(csrfMiddleware(baseUrl, fetch));
  return client;
}
