/**
 * Cross-site request forgery defences, used by the session middleware: a state-changing request that names a
 * foreign Origin is refused outright, and one that rides on a session cookie must also carry the session's
 * CSRF token in X-CSRF-Token. The token is an HMAC of the session's stored hash under a server secret kept in
 * the database, so that every server instance agrees on it without storing a token per session.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { CSRF_HEADER } from '../../common/platform.ts';
import type { Database } from '../db/connection.ts';
import { errorResponse } from './errors.ts';
import { clientSchemeOf } from './request-header.ts';

export { CSRF_HEADER };

/** The errorCode of every CSRF refusal (403), a missing or wrong token as much as a foreign Origin. */
export const CSRF_ERROR_CODE = 'CSRF_TOKEN_INVALID';
export const CSRF_TOKEN_MESSAGE = `The ${CSRF_HEADER} header is missing or does not match the session. Get the token from getCsrfToken.`;
export const CROSS_SITE_MESSAGE = 'Cross-site requests may not change anything.';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isUnsafe(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

function requestHost(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('X-Forwarded-Host')?.split(',')[0]?.trim() : undefined;
  return (forwarded || new URL(c.req.url).host).toLowerCase();
}

/**
 * Whether the request comes from another site: an Origin other than the server's own (an opaque "null"
 * included), or, from a browser that sends no Origin, Sec-Fetch-Site: cross-site.
 */
export function isCrossSite(c: Context, trustProxy: boolean): boolean {
  const origin = c.req.header('Origin');
  if (origin !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return true;
    }
    const scheme = clientSchemeOf(c, trustProxy);
    return parsed.protocol !== `${scheme}:` || parsed.host.toLowerCase() !== requestHost(c, trustProxy);
  }
  return c.req.header('Sec-Fetch-Site')?.toLowerCase() === 'cross-site';
}

export function csrfRefusal(c: Context, message: string) {
  return errorResponse(c, 403, CSRF_ERROR_CODE, message);
}

/** The key of CSRF tokens, created once per database and shared by every server on it. */
export function csrfSecret(db: Database): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  const load = async () => {
    await db.query(`INSERT INTO server_secret (name, value) VALUES ('csrf', $1) ON CONFLICT (name) DO NOTHING`, [randomBytes(32).toString('base64url')]);
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
