/**
 * Server rendering of the Contact Us page: its queries run in-process through the typed client, whose
 * fetch calls the app itself (no network hop), the page renders to HTML with their data, and the data
 * travels in the page for the browser to hydrate with.
 */
import type { Context } from 'hono';
import { createApiClient } from '../../client/index.ts';
import { QUERY_STATE_ELEMENT_ID } from '../src/constants.ts';
import { newNonce, pagePolicy } from '../../server/http/security-headers.ts';
import { carriesSessionCookie } from '../../server/http/session.ts';
import { clientAssetsReader } from './assets.ts';
import { DEFAULT_HEAD, renderDocument } from './document.ts';
import { renderPage } from './render.tsx';

/** The app's own fetch: a request in, the response the app would send over HTTP out. */
export type AppFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** What the visitor's request carries that the API calls made on their behalf need. */
const FORWARDED_HEADERS = ['cookie', 'authorization', 'accept-language', 'user-agent'];

export function pageHandler({ webRoot, fetchApi }: { webRoot: string; fetchApi: AppFetch }) {
  const readAssets = clientAssetsReader(webRoot);
  return async (c: Context) => {
    const assets = readAssets();
    if (!assets) return c.text('The web app is not built: run npm run build.', 503);
    const url = new URL(c.req.url);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_HEADERS) {
      const value = c.req.header(name);
      if (value) headers[name] = value;
    }
    const setCookies: string[] = [];
    const api = createApiClient({
      baseUrl: url.origin,
      headers,
      fetch: async (request) => {
        const response = await fetchApi(request, c.env);
        // A cookie an API call sets (a new session, say) must reach the browser with the page.
        setCookies.push(...response.headers.getSetCookie());
        return response;
      },
    });

    let html: string;
    const nonce = newNonce();
    let renderedHtml = '';
    try {
      const rendered = await renderPage(url, api);
      if ('redirect' in rendered) {
        // Not for keeps: what the page shows depends on the data (a later page may exist tomorrow).
        for (const cookie of setCookies) c.header('Set-Cookie', cookie, { append: true });
        c.header('Cache-Control', 'no-cache');
        return c.redirect(rendered.redirect, 302);
      }
      const { appHtml, state, head } = rendered;
      renderedHtml = appHtml;
      html = renderDocument({ head, assets, appHtml, state, stateElementId: QUERY_STATE_ELEMENT_ID, nonce });
    } catch (error) {
      // The page still works: the browser renders it and runs the queries itself.
      console.error('Server rendering failed; the browser will render the page', error);
      html = renderDocument({ head: DEFAULT_HEAD, assets, appHtml: '', stateElementId: QUERY_STATE_ELEMENT_ID, nonce });
    }
    c.header('Content-Security-Policy', pagePolicy(nonce, renderedHtml));
    for (const cookie of setCookies) c.header('Set-Cookie', cookie, { append: true });
    // A page rendered for a session (its name, its expiry in the data) is for that browser only.
    c.header('Cache-Control', carriesSessionCookie(headers.cookie) ? 'private, no-cache' : 'no-cache');
    return c.html(html);
  };
}
