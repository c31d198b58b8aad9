/**
 * Security headers on every answer: nosniff, no framing, HSTS over HTTPS, and a Content-Security-Policy.
 * API answers get a policy that allows nothing; the page gets one with the hashes of its inline style elements
 * and of the style attributes its server-rendered markup holds (no nonce, so that one rendered page can be
 * sent to every guest; no 'unsafe-inline');
 * the Redoc page its own. Documents (the answers that set their own policy) also get a strict referrer
 * policy and an isolated browsing context, which mean nothing for an answer that is not a document.
 */
import { createHash } from 'node:crypto';
import { statSync, readFileSync } from 'node:fs';
import type { MiddlewareHandler } from 'hono';
import type { AppOptions } from '../../app-options.ts';
import { trustProxyOf } from '../limits/limits.ts';
import { clientScheme, type NodeEnv } from '../connections/request-header.ts';
import { SecuredResponse } from '../connections/secured-response.ts';

/** JSON, media and error answers are never documents: they may load and run nothing. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const HSTS = 'max-age=31536000';

/** On every answer. */
const COMMON: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY' };
/** On documents only: they govern what a page sends as Referer and which windows share its context. */
const DOCUMENT: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
const API_HEADERS = { ...COMMON, 'Content-Security-Policy': API_POLICY };
const API_HTTPS_HEADERS = { ...API_HEADERS, 'Strict-Transport-Security': HSTS };
const API_HEADER_ENTRIES = Object.entries(API_HEADERS);

/** The security headers of an API answer (what the middleware adds, for answers made before it runs). */
export function apiSecurityHeaders(https: boolean): Readonly<Record<string, string>> {
  return https ? API_HTTPS_HEADERS : API_HEADERS;
}

/** The headers a document sets itself: its own policy, and the headers of documents only. */
export function documentSecurityHeaders(policy: string): Record<string, string> {
  return { 'Content-Security-Policy': policy, ...DOCUMENT };
}

/** Adds the security headers to an answer made in process, once it is made. */
type SecureAnswer = (response: Response) => Response;

/**
 * The security headers of a request, set before routing (server/http/entry/gate.ts), so that every answer gets them,
 * the limits' own (413, 429) included.
 *
 * On a connection (@hono/node-server), the headers are given to Node's response before the answer is made: the
 * answer's own headers of the same names win over them, so a document's policy (documentSecurityHeaders) wins
 * over the API's. A SecuredResponse (the project's servers) writes them with the answer's; another response
 * gets them set one by one. Setting them on the answer instead would turn its plain header object into a Headers
 * object, which costs an API answer as much as the rest of its way through the app. A request made in
 * process has no Node response: for it, this returns what adds them to its answer afterwards, a document's by
 * its own policy.
 */
export function securityHeaders(
  options: AppOptions = {},
): (request: Request, env: unknown) => SecureAnswer | undefined {
  const trustProxy = trustProxyOf(options);
  return function secureHeaders(request, env) {
    const outgoing = (env as NodeEnv)?.outgoing;
    if (outgoing instanceof SecuredResponse) {
      outgoing.defaultHeaders = apiSecurityHeaders(clientScheme(request, env, trustProxy) === 'https');
      return undefined;
    }
    if (outgoing && !outgoing.headersSent) {
      for (const [name, value] of API_HEADER_ENTRIES) outgoing.setHeader(name, value);
      if (clientScheme(request, env, trustProxy) === 'https') outgoing.setHeader('Strict-Transport-Security', HSTS);
      return undefined;
    }
    return (response) => {
      const { headers } = response;
      // A document carries its own policy and the headers of documents (documentSecurityHeaders).
      const document = headers.has('Content-Security-Policy');
      for (const [name, value] of Object.entries(document ? COMMON : API_HEADERS)) headers.set(name, value);
      if (clientScheme(request, env, trustProxy) === 'https') headers.set('Strict-Transport-Security', HSTS);
      return response;
    };
  };
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** sha256 of a text met again and again, made once while at most `limit` texts are kept (then forgotten at once). */
function cachedSha256(limit: number, prepare: (text: string) => string = (text) => text): (text: string) => string {
  const hashes = new Map<string, string>();
  return (text) => {
    let hash = hashes.get(text);
    if (hash === undefined) {
      if (hashes.size >= limit) hashes.clear();
      hashes.set(text, (hash = sha256(prepare(text))));
    }
    return hash;
  };
}

/** The hashes of inline style elements: a page holds the same stylesheets, some 20 KB, at every render. */
const inlineStyleHash = cachedSha256(16);

/** React's escapes in attribute values, read back to the value the browser hashes. */
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
const ENTITY = /&(?:amp|quot|#x27|#39|lt|gt);/g;
/** A style attribute: text and other attribute values cannot hold ` style="`, since React escapes `"`. */
const STYLE_ATTRIBUTE = /\sstyle="([^"]*)"/g;

/** The hashes of style attribute values, which are few (the app's components set them) and met at every render. */
const styleAttributeHash = cachedSha256(1_000, (attribute) =>
  attribute.replace(ENTITY, (entity) => ATTRIBUTE_ENTITIES[entity]),
);

/** The CSP hash sources of the distinct style attribute values of server-rendered markup. */
export function styleAttributeHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(STYLE_ATTRIBUTE)) hashes.add(styleAttributeHash(match[1]));
  return [...hashes];
}

const PAGE_FIXED =
  "default-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
  "base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * The page's policy: scripts from the server itself only (the page's inline scripts are data, which runs
 * nothing); stylesheets from the server and exactly the inline style elements the document holds; only the
 * style attributes the server rendered (React sets later styles through the CSSOM, which the policy does not
 * govern). All by hash, so that the policy depends on the page alone, like its ETag.
 */
export function pagePolicy(inlineStyles: readonly string[], appHtml: string): string {
  const hashes = styleAttributeHashes(appHtml);
  const attributes = hashes.length ? `'unsafe-hashes' ${hashes.join(' ')}` : "'none'";
  const styles = ["'self'", ...new Set(inlineStyles.map(inlineStyleHash))].join(' ');
  return `${PAGE_FIXED}; script-src 'self'; style-src ${styles}; style-src-elem ${styles}; style-src-attr ${attributes}`;
}

const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The Redoc page's policy: its inline scripts by hash; styles inline, since its styling library writes
 * them at run time; its search runs in a worker made from a blob.
 */
export function docsPolicy(html: string): string {
  const scripts = [...new Set([...html.matchAll(INLINE_SCRIPT)].map((match) => sha256(match[1])))];
  return (
    `default-src 'self'; script-src 'self' ${scripts.join(' ')}; style-src 'self' 'unsafe-inline'; ` +
    "img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
  );
}

/** The docs page's policy, computed again only when the built file changes. */
export function docsHeaders(file: string): MiddlewareHandler {
  let cached: { mtimeMs: number; policy: string } | undefined;
  return async function docsSecurityPolicy(c, next) {
    await next();
    if (c.res.status !== 200 || !c.res.headers.get('Content-Type')?.startsWith('text/html')) return;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return;
    }
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, policy: docsPolicy(readFileSync(file, 'utf8')) };
    for (const [name, value] of Object.entries(documentSecurityHeaders(cached.policy))) c.res.headers.set(name, value);
  };
}
