/**
 * Server rendering of the Contact Us page: its queries run in-process through the typed client, whose
 * fetch calls the app itself (no network hop), the page renders to HTML with their data, and the data
 * travels in the page for the browser to hydrate with.
 *
 * A guest's page for an address is the same for every guest: it is rendered once and kept (gzipped too)
 * until what it shows changes, in any server process on the database (see page-cache.ts). A signed-in
 * visitor's page is rendered for each request.
 */
import type { Context } from 'hono';
import { QUERY_STATE_ELEMENT_ID } from '../src/constants.ts';
import { carriesSessionCookie } from '../../server/http/sessions/session.ts';
import type { ResultCacheOptions } from '../../server/cache/result-cache.ts';
import { clientAssetsReader, type ClientAssets } from './assets.ts';
import { DEFAULT_HEAD, documentInlineStyles, renderDocument } from './document.ts';
import { htmlAnswer, redirectAnswer, sendPage, type PageAnswer } from './page-answer.ts';
import { guestQueryData, pageCache } from './page-cache.ts';
import type { GuestQueryData } from './guest-data.ts';
import { renderPage } from './render.tsx';
import { isBackOfficePath, isPagePath } from '../../common/pages.ts';
import { backOfficeHandler } from './back-office.ts';
import { inquiryRecordIdOf } from '../../common/pages.ts';
import { isApiError } from '../../client/index.ts';
import { submitInquiry } from '../../generated/client.ts';
import { forwardedHeaders, inProcessApi, type AppFetch } from './in-process-api.ts';
import { inquiryProblemOf, inquiryValuesOf, type InquiryPostState } from '../src/inquiry/inquiry-state.ts';

/** A page no cache may keep (an inquiry form, with its own key and token; its answers). */
function uncached(response: Response): Response {
  response.headers.set('Cache-Control', 'no-store');
  response.headers.delete('ETag');
  return response;
}

interface PageSetup {
  /** The web app's build folder. */
  webRoot: string;
  fetchApi: AppFetch;
  /** Subscribes to every change of what a guest's page shows; without it, every page is rendered afresh. */
  changes?: ResultCacheOptions['subscribe'];
  /**
   * PAGE_CACHE=off renders every page afresh (the benchmark of uncached renders), from the data kept for
   * guests; PAGE_CACHE=cold keeps the reference data and the guest's session alone (page-cache.ts), so every
   * render calls the API for the page's own data, as the first render after a change of it does.
   */
  env?: NodeJS.ProcessEnv;
}

/** A page render's answer, and what it must not share with other visitors. */
interface Rendered {
  answer: PageAnswer;
  /** Cookies the API calls set (a new session, say): for this visitor only. */
  setCookies: string[];
  /** Whether every query succeeded: a page with a default standing in for a failed one is not kept. */
  complete: boolean;
}

async function render(
  url: URL,
  headers: Record<string, string>,
  assets: ClientAssets,
  fetchApi: AppFetch,
  env: unknown,
  data?: GuestQueryData,
  posted?: InquiryPostState,
): Promise<Rendered> {
  const setCookies: string[] = [];
  const api = inProcessApi(url, headers, fetchApi, env, setCookies);
  // A guest's queries start from the data kept for guests, and what they fetch is kept once the page is made.
  const { queryClient, done } = data ? await data.client() : { queryClient: undefined, done: () => {} };
  try {
    const rendered = await renderPage(url, api, queryClient, posted);
    // Only data that no cookie came with is every guest's.
    if (setCookies.length === 0) done();
    // Not for keeps in the browser: what the page shows depends on the data (a later page may exist tomorrow).
    if ('redirect' in rendered) return { answer: redirectAnswer(rendered.redirect), setCookies, complete: true };
    const { appHtml, state, head, complete, status } = rendered;
    const html = renderDocument({ head, assets, appHtml, state, stateElementId: QUERY_STATE_ELEMENT_ID });
    return { answer: htmlAnswer(html, appHtml, documentInlineStyles(assets), status), setCookies, complete };
  } catch (error) {
    // The page still works: the browser renders it and runs the queries itself.
    console.error('Server rendering failed; the browser will render the page', error);
    const html = renderDocument({ head: DEFAULT_HEAD, assets, appHtml: '', stateElementId: QUERY_STATE_ELEMENT_ID });
    return { answer: htmlAnswer(html, '', documentInlineStyles(assets)), setCookies, complete: false };
  }
}

export function pageHandler({ webRoot, fetchApi, changes, env = process.env }: PageSetup) {
  const readAssets = clientAssetsReader(webRoot);
  const cache = changes ? pageCache(changes, env) : undefined;
  const data = changes ? guestQueryData(changes, env) : undefined;
  const backOffice = backOfficeHandler(webRoot, fetchApi);
  /**
   * The inquiry form posted without JavaScript: sent with submitInquiry in process, as the visitor (their cookie
   * and their browser's Origin, which the gate checked on this request); 303 to the confirmation, or the form
   * again with the field errors and the values sent (400).
   */
  const postInquiry = async (
    c: Context,
    url: URL,
    headers: Record<string, string>,
    assets: ClientAssets,
    guest: boolean,
  ): Promise<Response> => {
    const form = await c.req.parseBody();
    const values = inquiryValuesOf((name) => form[name]);
    const forwarded = { ...headers };
    for (const name of ['origin', 'sec-fetch-site'] as const) {
      const value = c.req.header(name);
      if (value) forwarded[name] = value;
    }
    // Cookies the call sets are not kept: the answer is a redirect, or the form rendered again with its own.
    const api = inProcessApi(url, forwarded, fetchApi, c.env, []);
    const { phone, website, ...required } = values;
    try {
      const result = await submitInquiry(api, {
        body: { ...required, ...(phone ? { phone } : {}), ...(website ? { website } : {}) },
      });
      return uncached(c.redirect(`${url.pathname}?sent=${encodeURIComponent(result.caseNumber)}`, 303));
    } catch (error) {
      if (!isApiError(error)) throw error;
      const posted = { values, ...inquiryProblemOf(error.status, error.body) };
      const { answer, setCookies } = await render(url, headers, assets, fetchApi, c.env, undefined, posted);
      return uncached(await sendPage(c, answer, { guest, setCookies, once: true }));
    }
  };
  const handle = async (c: Context) => {
    // The back office under /lightning/ is a page of its own, rendered in the browser (back-office.ts).
    if (isBackOfficePath(c.req.path)) return backOffice(c);
    const assets = readAssets();
    if (!assets) return c.text('The web app is not built: run npm run build.', 503);
    const url = new URL(c.req.url);
    const headers = forwardedHeaders(c);
    // A guest: no session, no credentials. What the server answers a guest depends on nothing else the
    // request carries but its address (host included: links to the site's own host are told apart).
    const guest = !carriesSessionCookie(headers.cookie) && headers.authorization === undefined;
    // An inquiry form carries a key and token of its own: made for each request, kept by no cache.
    if (inquiryRecordIdOf(url.pathname)) {
      if (c.req.method === 'POST') return postInquiry(c, url, headers, assets, guest);
      const { answer, setCookies } = await render(url, headers, assets, fetchApi, c.env);
      return uncached(await sendPage(c, answer, { guest, setCookies, once: true }));
    }
    // The page not found is made for each request: the addresses it answers are without end, none is kept.
    if (!guest || !cache || !isPagePath(url.pathname)) {
      const { answer, setCookies } = await render(url, headers, assets, fetchApi, c.env);
      return sendPage(c, answer, { guest, setCookies, once: true });
    }
    let setCookies: string[] = [];
    let keepable = false;
    let made = false;
    // Keyed by the built app too: a rebuild while the server runs changes the assets every page names.
    const answer = await cache.entry(
      `${assets.script} ${url.href}`,
      async () => {
        made = true;
        const rendered = await render(url, headers, assets, fetchApi, c.env, data);
        ({ setCookies } = rendered);
        keepable = rendered.complete && setCookies.length === 0;
        return rendered.answer;
      },
      () => keepable,
    );
    // Only the request that rendered the page gets the cookies its calls set; a page that set any is not kept.
    return sendPage(c, answer, { guest, setCookies, once: made && !(cache.enabled && keepable) });
  };
  return Object.assign(handle, { cache, data });
}
