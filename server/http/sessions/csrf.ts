/**
 * Cross-site request forgery defences, used by the session gate (OWASP CSRF cheat sheet: Fetch Metadata,
 * origin checks, and a synchronizer token where neither proves anything):
 * - a state-changing request that names a foreign Origin, or that the browser marks Sec-Fetch-Site:
 *   cross-site, is refused outright, with or without a session;
 * - one that rides on a session cookie must prove it comes from the site itself: the browser's own word
 *   (Sec-Fetch-Site: same-origin, or an Origin equal to the site's), which a page on another site cannot
 *   forge, as the platform's own client relies on; or the session's CSRF token in X-CSRF-Token, for clients
 *   that send neither header. A token that is sent must be the session's, whatever else the request says.
 * The token is an HMAC of the session's stored hash under a server secret kept in the database, so that every
 * server instance agrees on it without storing a token per session.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CSRF_HEADER } from '../../../common/platform.ts';
import type { Database } from '../../db/connection.ts';
import { errorAnswer } from '../errors.ts';
import { clientScheme, incomingHeader } from '../connections/request-header.ts';

export { CSRF_HEADER };

/** The errorCode of every CSRF refusal (403), a missing or wrong token as much as a foreign Origin. */
const CSRF_ERROR_CODE = 'CSRF_TOKEN_INVALID';
export const CSRF_TOKEN_MESSAGE = `The ${CSRF_HEADER} header is missing or does not match the session. Get the token from getCsrfToken.`;
export const CROSS_SITE_MESSAGE = 'Cross-site requests may not change anything.';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isUnsafe(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

/** The request as the gate sees it, before routing: the Request, and the env the Node adapter gives (undefined in process). */
type Incoming = { request: Request; env: unknown };

function header({ request, env }: Incoming, name: Lowercase<string>): string | undefined {
  return incomingHeader(request, env, name);
}

function requestHost(incoming: Incoming, trustProxy: boolean): string {
  const forwarded = trustProxy ? header(incoming, 'x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return (forwarded || new URL(incoming.request.url).host).toLowerCase();
}

/** Whether an Origin header names the server's own origin (scheme and host); an opaque "null" never does. */
function isOwnOrigin(incoming: Incoming, origin: string, trustProxy: boolean): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  const scheme = clientScheme(incoming.request, incoming.env, trustProxy);
  return parsed.protocol === `${scheme}:` && parsed.host.toLowerCase() === requestHost(incoming, trustProxy);
}

/**
 * Whether the request comes from another site: an Origin other than the server's own (an opaque "null"
 * included), or, from a browser that sends no Origin, Sec-Fetch-Site: cross-site.
 */
export function isCrossSite(incoming: Incoming, trustProxy: boolean): boolean {
  const origin = header(incoming, 'origin');
  if (origin !== undefined) return !isOwnOrigin(incoming, origin, trustProxy);
  return header(incoming, 'sec-fetch-site')?.toLowerCase() === 'cross-site';
}

/**
 * Whether the browser vouches that the request comes from the site's own pages: Sec-Fetch-Site: same-origin,
 * or an Origin equal to the site's own, and neither header saying otherwise. Browsers set both headers
 * themselves (a page cannot), so a request forged by another site never carries this proof.
 */
export function isProvenSameOrigin(incoming: Incoming, trustProxy: boolean): boolean {
  const origin = header(incoming, 'origin');
  const fetchSite = header(incoming, 'sec-fetch-site')?.toLowerCase();
  if (origin !== undefined && !isOwnOrigin(incoming, origin, trustProxy)) return false;
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  return origin !== undefined || fetchSite === 'same-origin';
}

/** The X-CSRF-Token a request sends, if any. */
export function csrfTokenOf(incoming: Incoming): string | undefined {
  return header(incoming, CSRF_HEADER.toLowerCase() as Lowercase<string>);
}

/** The refusal (403), in the called path's error shape. */
export function csrfRefusal(path: string, message: string): Response {
  return errorAnswer(path, 403, CSRF_ERROR_CODE, message);
}

/** The key of CSRF tokens, created once per database and shared by every server on it. */
export function csrfSecret(db: Database): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  const load = async () => {
    await db.query(`INSERT INTO server_secret (name, value) VALUES ('csrf', $1) ON CONFLICT (name) DO NOTHING`, [
      randomBytes(32).toString('base64url'),
    ]);
    const { rows } = await db.query<{ value: string }>(`SELECT value FROM server_secret WHERE name = 'csrf'`);
    return Buffer.from(rows[0].value, 'base64url');
  };
  return () => {
    secret ??= load().catch((error) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}

export function csrfTokenFor(secret: Buffer, sessionIdHash: string): string {
  return createHmac('sha256', secret).update(`csrf:${sessionIdHash}`).digest('base64url');
}

export function csrfTokenMatches(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
