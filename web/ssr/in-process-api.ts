/**
 * The typed client on the app itself, for the server's renders: its fetch calls the app in process (no network
 * hop), as the visitor, with what the visitor's request carries that the API calls made on their behalf need.
 */
import type { Context } from 'hono';
import { createApiClient, type ApiClient } from '../../client/index.ts';

/** The app's own fetch: a request in, the response the app would send over HTTP out. */
export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** What the visitor's request carries that the API calls made on their behalf need. */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'accept-language', 'user-agent'] as const;

export function forwardedHeaders(c: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = c.req.header(name);
    if (value) headers[name] = value;
  }
  return headers;
}

/**
 * A client whose calls the app answers in process. The cookies the calls set (a new session, say) are pushed
 * onto setCookies: they must reach the browser with the page, and only this visitor's.
 */
export function inProcessApi(
  url: URL,
  headers: Record<string, string>,
  fetchApi: AppFetch,
  env: unknown,
  setCookies: string[],
): ApiClient {
  return createApiClient({
    baseUrl: url.origin,
    headers,
    fetch: async (request) => {
      const response = await fetchApi(request, env);
      setCookies.push(...response.headers.getSetCookie());
      return response;
    },
  });
}
