import createClient, { type Client, type HeadersOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/schema';
import {
  ApiError,
  isApexError,
  isApexPath,
  isErrorList,
  synthesizeErrorBody,
  type OperationErrorBody,
  type OperationId,
} from './errors';

export type { components, operations, paths } from './generated/schema';
export { cacheTtl, type CachedOperationId } from './generated/cache-ttl';
export {
  ApiError,
  errorMessageOf,
  isApexError,
  isApiError,
  isErrorList,
  type ApexErrorRepresentation,
  type ApiErrorBody,
  type ErrorList,
  type ErrorRepresentation,
  type OperationErrorBody,
  type OperationId,
} from './errors';

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

export type ApiClient = Client<paths>;

export interface ApiClientOptions {
  /** Origin (and optional prefix) of the API; '' for same-origin requests in the browser. */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (server-side rendering, tests). */
  fetch?: (input: Request) => Promise<Response>;
  /** Headers sent with every request, e.g. a forwarded cookie during server-side rendering. */
  headers?: HeadersOptions;
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
    if (apex ? isApexError(body) : isErrorList(body)) return undefined;
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

export function createApiClient({ baseUrl, fetch, headers }: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl,
    headers,
    ...(fetch ? { fetch } : {}),
  });
  client.use(errorShapeMiddleware);
  return client;
}

type CallResult<Data> = { data?: Data; error?: unknown; response: Response };

/**
 * Awaits one openapi-fetch call and returns its data, or throws ApiError carrying the operation's
 * typed error body. A network failure becomes ApiError with status 0; an abort is rethrown untouched
 * so that TanStack Query treats it as a cancellation.
 */
export async function unwrap<Op extends OperationId, Data>(
  operationId: Op,
  pathname: string,
  call: Promise<CallResult<Data>>,
): Promise<Data> {
  let result: CallResult<Data>;
  try {
    result = await call;
  } catch (cause) {
    if ((cause as { name?: unknown } | null)?.name === 'AbortError') throw cause;
    const detail = cause instanceof Error ? cause.message : String(cause);
    const body = synthesizeErrorBody(isApexPath(pathname), 0, 'The request could not reach the server', detail);
    throw new ApiError(operationId, 0, body as OperationErrorBody<Op>);
  }
  const { data, error, response } = result;
  if (!response.ok) {
    // The middleware shapes every 4xx/5xx body; a 304 (only when the caller sent If-None-Match) has none.
    const apex = isApexPath(pathname);
    const body = (apex ? isApexError(error) : isErrorList(error))
      ? error
      : synthesizeErrorBody(apex, response.status, response.statusText || `Status ${response.status}`);
    throw new ApiError(operationId, response.status, body as OperationErrorBody<Op>);
  }
  return data as Data;
}
