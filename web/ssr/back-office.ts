/**
 * The back office's document, for every address under /lightning/: rendered in the browser, from the same small
 * document for all of them (web/lightning.html's entry, its stylesheet inline as the storefront's is), which
 * carries the answers of the screen's first queries (web/src/lightning/first-queries.ts), asked for in process as
 * the user: the browser starts from them rather than asking once its script has run. Signed-in users only: a
 * guest, or a cookie whose session has ended, is sent to the sign-in page, which returns to the address asked for.
 */
import { dehydrate, QueryClient } from '@tanstack/react-query';
import type { Context } from 'hono';
import { signInHref } from '../../common/sign-in.ts';
import { sessionOf } from '../../server/http/sessions/principal.ts';
import { backOfficeAssetsReader } from './assets.ts';
import { documentInlineStyles, renderDocument } from './document.ts';
import { SERVER_QUERY_DEFAULTS } from './guest-data.ts';
import { forwardedHeaders, inProcessApi, type AppFetch } from './in-process-api.ts';
import { htmlAnswer, redirectAnswer, sendPage } from './page-answer.ts';
import { QUERY_STATE_ELEMENT_ID } from '../src/constants.ts';
import { prefetchFirstQueries } from '../src/lightning/first-queries.ts';
import { routeOf } from '../src/lightning/routes.ts';

const HEAD = {
  title: 'Storefront Console',
  description: 'The store’s records: representatives, accounts and inquiries.',
};

export function backOfficeHandler(webRoot: string, fetchApi: AppFetch) {
  const readAssets = backOfficeAssetsReader(webRoot);
  return async (c: Context): Promise<Response> => {
    const url = new URL(c.req.url);
    // The session gate has found the caller from the cookie before routing (server/http/entry/gate.ts).
    if (!sessionOf(c)) {
      const answer = await sendPage(c, redirectAnswer(signInHref(url.pathname, url.search)), {
        guest: true,
        setCookies: [],
      });
      answer.headers.set('Cache-Control', 'no-store');
      return answer;
    }
    const assets = readAssets();
    if (!assets) return c.text('The web app is not built: run npm run build.', 503);
    const setCookies: string[] = [];
    const queryClient = new QueryClient({ defaultOptions: SERVER_QUERY_DEFAULTS });
    try {
      await prefetchFirstQueries(
        queryClient,
        inProcessApi(url, forwardedHeaders(c), fetchApi, c.env, setCookies),
        routeOf(url.pathname, url.search),
      );
      // The answers alone: a query that failed is asked for again by the browser, which shows its error.
      const state = dehydrate(queryClient, { shouldDehydrateQuery: (query) => query.state.status === 'success' });
      const html = renderDocument({ head: HEAD, assets, appHtml: '', state, stateElementId: QUERY_STATE_ELEMENT_ID });
      const answer = await sendPage(c, htmlAnswer(html, '', documentInlineStyles(assets)), {
        guest: false,
        setCookies,
        once: true,
      });
      // The document holds the user's own data: no cache keeps it, not even the browser's.
      answer.headers.set('Cache-Control', 'no-store');
      return answer;
    } finally {
      queryClient.clear();
    }
  };
}
