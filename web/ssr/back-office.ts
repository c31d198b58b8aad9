/**
 * The back office's document, for every address under /lightning/: rendered in the browser alone, so the
 * server sends the same small document for all of them (web/lightning.html's entry, its stylesheet inline as
 * the storefront's is). Signed-in users only: a guest, or a cookie whose session has ended, is sent to the
 * sign-in page, which returns to the address asked for.
 */
import type { Context } from 'hono';
import { signInHref } from '../../common/sign-in.ts';
import { sessionOf } from '../../server/http/sessions/principal.ts';
import { backOfficeAssetsReader } from './assets.ts';
import { documentInlineStyles, renderDocument } from './document.ts';
import { htmlAnswer, redirectAnswer, sendPage } from './page-answer.ts';
import { QUERY_STATE_ELEMENT_ID } from '../src/constants.ts';

const HEAD = {
  title: 'Storefront Console',
  description: 'The store’s records: representatives, accounts and inquiries.',
};

export function backOfficeHandler(webRoot: string) {
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
    // No data in the document: the page asks the API for everything itself, as the signed-in user.
    const html = renderDocument({ head: HEAD, assets, appHtml: '', stateElementId: QUERY_STATE_ELEMENT_ID });
    const answer = await sendPage(c, htmlAnswer(html, '', documentInlineStyles(assets)), {
      guest: false,
      setCookies: [],
      once: true,
    });
    // The document names the user's own screens: no cache keeps it, not even the browser's.
    answer.headers.set('Cache-Control', 'no-store');
    return answer;
  };
}
