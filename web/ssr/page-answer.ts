/**
 * A rendered page as it is sent: the HTML (or a redirect) made once into what every answer of it needs, the
 * body, its ETag and its Content-Security-Policy, and sent in Brotli or gzip to clients that accept it. The page
 * cache keeps these for guests; a signed-in visitor's page is made and sent the same way, for one request.
 */
import type { Context } from 'hono';
import { etagMatches, varyWithSession } from '../../server/http/answers/cache-headers.ts';
import { requestHeader } from '../../server/http/connections/request-header.ts';
import { documentSecurityHeaders, pagePolicy } from '../../server/http/answers/security-headers.ts';
import {
  acceptsBrotli,
  acceptsGzip,
  brotliBody,
  brotliEtag,
  compressOnce,
  gzipEtag,
  gzippedBody,
} from '../../server/http/answers/compression.ts';
import { textAnswer, type SerializedAnswer } from '../../server/cache/result-cache.ts';

export type PageAnswer = HtmlAnswer | RedirectAnswer;

interface HtmlAnswer extends SerializedAnswer {
  /** 404 for the page not found (an address the site does not have). */
  status: 200 | 400 | 404;
  /** The Content-Security-Policy of the HTML: by hashes of what it holds, so the same for every answer of it. */
  policy: string;
}

/** A page past the last, say: the address of what the page shows instead. */
interface RedirectAnswer extends SerializedAnswer {
  status: 302;
  location: string;
}

/**
 * The page's body and ETag are made as the locator's answers are (the same ETag rule), from the HTML text;
 * its policy allows the document's inline style elements (documentInlineStyles) and the app's style attributes.
 */
export function htmlAnswer(
  html: string,
  appHtml: string,
  inlineStyles: readonly string[],
  status: 200 | 400 | 404 = 200,
): HtmlAnswer {
  const { body, etag } = textAnswer(html);
  return { status, body, etag, policy: pagePolicy(inlineStyles, appHtml) };
}

export function redirectAnswer(location: string): RedirectAnswer {
  return { status: 302, location, body: new Uint8Array(0), etag: '' };
}

/** Every page answer varies on the encoding, and on the session: a guest's page is not a signed-in user's. */
const VARY = varyWithSession('Accept-Encoding');

/**
 * Sends a page answer. A guest's page may be revalidated by any cache, a signed-in user's by the browser only;
 * neither may be used without asking (the contacts it shows change). If-None-Match with its ETag (either
 * encoding's) is a 304, which carries the page's policy too: a cache updates the stored headers from it.
 * An answer no other request will get (`once`: a signed-in visitor's page, or one not kept) is compressed
 * for speed rather than size, off the event loop; a kept one once, at its first request, and kept with it.
 */
export async function sendPage(
  c: Context,
  answer: PageAnswer,
  { guest, setCookies, once = false }: { guest: boolean; setCookies: readonly string[]; once?: boolean },
): Promise<Response> {
  for (const cookie of setCookies) c.header('Set-Cookie', cookie, { append: true });
  const cacheControl = guest ? 'no-cache' : 'private, no-cache';
  if (answer.status === 302) {
    return c.body(null, 302, { Location: answer.location, 'Cache-Control': cacheControl, Vary: VARY });
  }
  const common = { 'Cache-Control': cacheControl, Vary: VARY, ...documentSecurityHeaders(answer.policy) };
  const { coding, etag } = encodingOf(answer, requestHeader(c, 'accept-encoding'));
  if (answer.status === 200 && etagMatches(requestHeader(c, 'if-none-match'), etag))
    return c.body(null, 304, { ...common, ETag: etag });
  const body =
    coding === undefined ? answer.body : once ? await compressOnce(answer.body, coding) : cachedBody(answer, coding);
  const encoding: Record<string, string> = coding ? { 'Content-Encoding': coding } : {};
  return c.body(body as Uint8Array<ArrayBuffer>, answer.status, {
    ...common,
    ...encoding,
    ETag: etag,
    'Content-Type': 'text/html; charset=UTF-8',
  });
}

/** The best coding the client accepts (Brotli, gzip, none), with that representation's ETag. */
function encodingOf(
  answer: HtmlAnswer,
  acceptEncoding: string | undefined,
): { coding: 'br' | 'gzip' | undefined; etag: string } {
  if (acceptsBrotli(acceptEncoding)) return { coding: 'br', etag: brotliEtag(answer.etag) };
  if (acceptsGzip(acceptEncoding)) return { coding: 'gzip', etag: gzipEtag(answer.etag) };
  return { coding: undefined, etag: answer.etag };
}

/** A kept answer's body in a coding, compressed at its first request and kept with it. */
function cachedBody(answer: HtmlAnswer, coding: 'br' | 'gzip'): Uint8Array {
  return coding === 'br' ? brotliBody(answer) : gzippedBody(answer);
}
