/**
 * Sessions: a random id in an HttpOnly cookie, stored only as its SHA-256, with an idle and an absolute
 * expiry enforced here. The gate (before routing) turns the cookie into the request's Principal with one
 * indexed query, or none while the session is kept in memory; an unknown or expired session leaves the caller a
 * guest and clears the cookie (the operations that need a user then answer 401, see operation.ts). It also
 * applies the CSRF defences of csrf.ts.
 */
import { hash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { parse as parseCookies, serialize as serializeCookie } from 'hono/utils/cookie';
import { getPath } from 'hono/utils/url';
import { callerOf, type ActiveSession, type Caller, type CallerEnv } from './principal.ts';
import {
  clientScheme,
  clientSchemeOf,
  incomingHeader,
  requestHeader,
  type NodeEnv,
} from '../connections/request-header.ts';
import { closeIfBodyUnread, withHeader } from '../answers/response-headers.ts';
import { systemClock, type AppOptions, type Clock, type SessionOptions } from '../../app-options.ts';
import type { Database } from '../../db/connection.ts';
import { GUEST, type Principal } from '../../platform/core/principal.ts';
import { principalOfUser, type SignInUser } from '../../platform/users.ts';
import {
  CROSS_SITE_MESSAGE,
  CSRF_TOKEN_MESSAGE,
  csrfRefusal,
  csrfSecret,
  csrfTokenFor,
  csrfTokenMatches,
  csrfTokenOf,
  isCrossSite,
  isProvenSameOrigin,
  isUnsafe,
} from './csrf.ts';
import { SESSION_COOKIE } from '../../../common/platform.ts';
import { SessionCache } from '../../cache/session-cache.ts';

export type { ActiveSession };

/** The app's way on from the session gate, given the env with the request's caller. */
type CallerDispatch = (env: CallerEnv) => Response | Promise<Response>;

const SESSION_PATH = '/services/auth/session';
const KEEP_ALIVE_PATH = '/services/auth/session/keep-alive';
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/** The session cookie's name over HTTPS (the __Host- prefix: the browser insists on Secure, Path=/, no Domain) and over HTTP. */
const SESSION_COOKIE_IN_HEADER = new RegExp(`(?:^|;)\\s*(?:${SESSION_COOKIE.https}|${SESSION_COOKIE.http})=`);

/** Whether a Cookie header carries a session cookie, of either name. */
export function carriesSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && SESSION_COOKIE_IN_HEADER.test(cookieHeader);
}
/** How many Cookie headers' session id hashes are kept per scheme (then they are dropped, and kept afresh). */
const MAX_COOKIE_HEADERS_SEEN = 1_000;
/** The longest Cookie header whose session id hash is kept: a longer one is read at every request. */
const MAX_COOKIE_HEADER_KEPT = 1_024;
/** How long before the idle expiry the page warns: the warning text promises approximately 30 seconds. */
export const WARNING_SECONDS = 30;

interface SessionSettings extends SessionOptions {
  /** Whether X-Forwarded-Proto and X-Forwarded-Host come from a proxy the server trusts (TRUST_PROXY=1). */
  trustProxy: boolean;
}

/** A timeout from the environment; a value that is not a positive whole number stops the server at start. */
function positiveSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`${name} must be a whole number of seconds above 0, not "${value}"`);
  return parsed;
}

export function sessionSettings(options: AppOptions, env: NodeJS.ProcessEnv = process.env): SessionSettings {
  return {
    idleTimeoutSeconds:
      options.session?.idleTimeoutSeconds ?? positiveSeconds(env, 'SESSION_IDLE_TIMEOUT_SECONDS', 30 * 60),
    absoluteTimeoutSeconds:
      options.session?.absoluteTimeoutSeconds ?? positiveSeconds(env, 'SESSION_ABSOLUTE_TIMEOUT_SECONDS', 8 * 60 * 60),
    trustProxy: options.trustProxy ?? env.TRUST_PROXY === '1',
  };
}

interface SessionRow {
  user_id: string;
  created_at: Date;
  idle_expires_at: Date;
  absolute_expires_at: Date;
  username: string | null;
  name: string | null;
  profile_id: string | null;
  is_active: boolean | null;
}

// One-shot: no Hash object for each request that carries a cookie.
const hashOf = (sessionId: string) => hash('sha256', sessionId, 'hex');

export class Sessions {
  readonly settings: SessionSettings;
  readonly clock: Clock;
  readonly #db: Database;
  readonly #secret: () => Promise<Buffer>;
  readonly #kept: SessionCache<ActiveSession, Principal>;

  constructor(db: Database, options: AppOptions = {}) {
    this.#db = db;
    this.#kept = new SessionCache(db);
    this.settings = sessionSettings(options);
    this.clock = options.clock ?? systemClock;
    this.#secret = csrfSecret(db);
  }

  /**
   * The Set-Cookie header of the session cookie for a scheme: a new session's id, or '' to clear it (Hono's
   * serializer, which also holds the __Host- name to Secure and Path=/). A session cookie: it lasts as long as the
   * browser runs, and the session's own expiries are enforced here.
   */
  #cookie(scheme: 'http' | 'https', value: string): string {
    const clearing = value === '' ? { maxAge: 0, expires: new Date(0) } : {};
    return serializeCookie(SESSION_COOKIE[scheme], value, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: scheme === 'https',
      ...clearing,
    });
  }

  #writeCookie(c: Context, value: string) {
    c.header('Set-Cookie', this.#cookie(clientSchemeOf(c, this.settings.trustProxy), value), { append: true });
    callerAt(c).cookieWritten = true;
  }

  /** The idle expiry a request at `now` earns, never past the absolute one. */
  #idleExpiry(now: number, absoluteExpiresAt: number): number {
    return Math.min(now + this.settings.idleTimeoutSeconds * 1000, absoluteExpiresAt);
  }

  /**
   * Signs the user in: destroys the session the request carried, if any, and starts one with a new id
   * (so that an id planted before sign-in is worthless after it).
   */
  async start(c: Context, user: SignInUser): Promise<ActiveSession> {
    await this.#destroy(c);
    const now = this.clock.now();
    const id = randomBytes(32).toString('base64url');
    const absoluteExpiresAt = now + this.settings.absoluteTimeoutSeconds * 1000;
    const session: ActiveSession = {
      idHash: hashOf(id),
      userId: user.userId,
      username: user.username,
      displayName: user.displayName,
      createdAt: now,
      idleExpiresAt: this.#idleExpiry(now, absoluteExpiresAt),
      absoluteExpiresAt,
    };
    // Sessions nobody came back for are removed here rather than by a timer: sign-ins are rare enough.
    await this.#db.query('DELETE FROM user_session WHERE idle_expires_at <= $1', [new Date(now)]);
    await this.#db.query(
      `INSERT INTO user_session (id_hash, user_id, created_at, idle_expires_at, absolute_expires_at) VALUES ($1, $2, $3, $4, $5)`,
      [session.idHash, session.userId, new Date(now), new Date(session.idleExpiresAt), new Date(absoluteExpiresAt)],
    );
    this.#writeCookie(c, id);
    Object.assign(callerAt(c), { session, principal: user.principal });
    return session;
  }

  async #destroy(c: Context): Promise<void> {
    const idHash = this.#sessionIdHashOfRequest(c);
    if (idHash) {
      this.#kept.drop(idHash);
      await this.#db.query('DELETE FROM user_session WHERE id_hash = $1', [idHash]);
    }
    Object.assign(callerAt(c), { session: undefined, principal: GUEST });
  }

  /** Signs out: destroys the request's session on the server, whatever its state, and clears the cookie. */
  async end(c: Context): Promise<void> {
    await this.#destroy(c);
    this.#writeCookie(c, '');
  }

  /** Continue Working: moves the idle expiry on (never past the absolute one). */
  async keepAlive(session: ActiveSession): Promise<ActiveSession> {
    const idleExpiresAt = this.#idleExpiry(this.clock.now(), session.absoluteExpiresAt);
    if (idleExpiresAt !== session.idleExpiresAt) {
      await this.#db.query('UPDATE user_session SET idle_expires_at = $2 WHERE id_hash = $1', [
        session.idHash,
        new Date(idleExpiresAt),
      ]);
    }
    return Object.assign(session, { idleExpiresAt });
  }

  async csrfToken(session: ActiveSession): Promise<string> {
    return csrfTokenFor(await this.#secret(), session.idHash);
  }

  /**
   * The session of an id's hash, or null when there is none or it is over (an ended one is destroyed).
   * A session kept in memory is used while it has not expired by what was kept; its idle expiry only moves
   * on, so one that looks over (another server may have moved it on) is read again before it is ended.
   */
  async #find(idHash: string, now: number): Promise<{ session: ActiveSession; principal: Principal } | null> {
    const kept = this.#kept.get(idHash);
    if (kept && now < kept.session.idleExpiresAt && now < kept.session.absoluteExpiresAt) return kept;
    return this.#kept.read(idHash, () => this.#read(idHash, now));
  }

  /** The session of an id hash as the database holds it, or null when there is none or it is over (an ended one is destroyed). */
  async #read(idHash: string, now: number): Promise<{ session: ActiveSession; principal: Principal } | null> {
    const { rows } = await this.#db.query<SessionRow>(
      `SELECT s.user_id, s.created_at, s.idle_expires_at, s.absolute_expires_at,
              r.fields ->> 'Username' AS username, r.fields ->> 'Name' AS name,
              r.fields ->> 'ProfileId' AS profile_id, (r.fields ->> 'IsActive')::boolean AS is_active
       FROM user_session s JOIN record r ON r.id = s.user_id
       WHERE s.id_hash = $1`,
      [idHash],
      { prepareAs: 'session_by_hash' },
    );
    const row = rows[0];
    if (!row) return null;
    const idleExpiresAt = row.idle_expires_at.getTime();
    const absoluteExpiresAt = row.absolute_expires_at.getTime();
    const principal = principalOfUser(row.user_id, row.profile_id, row.is_active);
    if (now >= idleExpiresAt || now >= absoluteExpiresAt || !principal) {
      await this.#db.query('DELETE FROM user_session WHERE id_hash = $1', [idHash]);
      return null;
    }
    const username = row.username ?? '';
    const session = {
      idHash,
      userId: row.user_id,
      username,
      displayName: row.name ?? username,
      createdAt: row.created_at.getTime(),
      idleExpiresAt,
      absoluteExpiresAt,
    };
    return { session, principal };
  }

  /**
   * Counts a request as activity. Writes only once a sixtieth of the idle timeout (at most a minute) has
   * passed since the last write, so that a burst of requests costs one write; the stored expiry is the one
   * enforced and reported, so the boundary stays exact.
   */
  async #touch(session: ActiveSession, now: number): Promise<void> {
    if (!this.#touchDue(session, now)) return;
    const next = this.#idleExpiry(now, session.absoluteExpiresAt);
    await this.#db.query(
      'UPDATE user_session SET idle_expires_at = $2 WHERE id_hash = $1',
      [session.idHash, new Date(next)],
      { prepareAs: 'session_touch' },
    );
    session.idleExpiresAt = next;
  }

  /** Whether a request at now moves the session's stored idle expiry on (#touch writes it). */
  #touchDue(session: ActiveSession, now: number): boolean {
    const step = Math.min(60_000, (this.settings.idleTimeoutSeconds * 1000) / 60);
    return this.#idleExpiry(now, session.absoluteExpiresAt) - session.idleExpiresAt >= step;
  }

  /**
   * The caller of a GET whose session is kept in memory, when the middleware would find that session without
   * reading or writing anything: it has not expired, and this request need not move its idle expiry on. For
   * the replay stage, which answers before the middleware; undefined sends the request the router's way.
   */
  cachedPrincipal(request: Request, env: unknown): Principal | undefined {
    const cookies = incomingHeader(request, env, 'cookie');
    if (cookies === undefined) return undefined;
    const idHash = this.#sessionIdHashOf(cookies, clientScheme(request, env, this.settings.trustProxy));
    const kept = idHash ? this.#kept.peek(idHash) : undefined;
    if (!kept) return undefined;
    const now = this.clock.now();
    const { session } = kept;
    if (now >= session.idleExpiresAt || now >= session.absoluteExpiresAt || this.#touchDue(session, now))
      return undefined;
    return kept.principal;
  }

  /**
   * Per scheme, what #sessionIdHashOf found in Cookie headers seen lately: a browser sends the same one again
   * and again. Headers longer than MAX_COOKIE_HEADER_KEPT are read every time.
   */
  readonly #idHashes = {
    http: new Map<string, string | null | undefined>(),
    https: new Map<string, string | null | undefined>(),
  };

  /**
   * The hash of the session id a Cookie header carries (the cookie of the scheme's name, as Hono's getCookie reads it):
   * undefined when it carries no such cookie, null when its value cannot be a session id.
   */
  #sessionIdHashOf(cookies: string, scheme: 'http' | 'https'): string | null | undefined {
    const seen = this.#idHashes[scheme];
    if (seen.has(cookies)) return seen.get(cookies);
    const name = SESSION_COOKIE[scheme];
    const id = parseCookies(cookies, name)[name];
    const idHash = id === undefined ? undefined : SESSION_ID.test(id) ? hashOf(id) : null;
    if (cookies.length <= MAX_COOKIE_HEADER_KEPT) {
      if (seen.size >= MAX_COOKIE_HEADERS_SEEN) seen.clear();
      seen.set(cookies, idHash);
    }
    return idHash;
  }

  /** #sessionIdHashOf the request's Cookie header (undefined without one). */
  #sessionIdHashOfRequest(c: Context): string | null | undefined {
    const cookies = requestHeader(c, 'cookie');
    return cookies === undefined
      ? undefined
      : this.#sessionIdHashOf(cookies, clientSchemeOf(c, this.settings.trustProxy));
  }

  /**
   * Before routing (server/http/entry/gate.ts): the caller of a request, from its session cookie, with the CSRF
   * defences of csrf.ts, handed to the app in the env (callerOf); then the app's answer, which clears the cookie
   * of a session that is over unless the answer wrote one itself. A read that carries no cookie, which most
   * requests are (guests reading), and any request for the web app's hashed files, which are the same for
   * everyone, go on as a guest's with nothing looked at.
   */
  gate(request: Request, env: unknown, dispatch: CallerDispatch): Response | Promise<Response> {
    const unsafe = isUnsafe(request.method);
    if (!unsafe && incomingHeader(request, env, 'cookie') === undefined) return dispatch(env as CallerEnv);
    const path = getPath(request);
    if (path.startsWith('/assets/')) return dispatch(env as CallerEnv);
    return this.#withSession({ request, env }, path, unsafe, dispatch);
  }

  async #withSession(
    incoming: { request: Request; env: unknown },
    path: string,
    unsafe: boolean,
    dispatch: CallerDispatch,
  ): Promise<Response> {
    const { request, env } = incoming;
    const { trustProxy } = this.settings;
    if (unsafe && isCrossSite(incoming, trustProxy))
      return closeIfBodyUnread(request, csrfRefusal(path, CROSS_SITE_MESSAGE));
    const cookies = incomingHeader(request, env, 'cookie');
    const scheme = clientScheme(request, env, trustProxy);
    const idHash = cookies === undefined ? undefined : this.#sessionIdHashOf(cookies, scheme);
    const caller: Caller = { principal: GUEST, session: undefined, cookieWritten: false };
    let ended = false;
    if (idHash !== undefined) {
      const now = this.clock.now();
      const found = idHash === null ? null : await this.#find(idHash, now);
      if (!found) ended = true;
      else {
        const { session, principal } = found;
        const signingIn = request.method === 'POST' && path === SESSION_PATH;
        // Signing in again replaces the session, so it needs no token of the old one; the Origin check holds.
        // A token, when sent, must be the session's; without one, the browser's proof of the same origin will do.
        if (unsafe && !signingIn) {
          const token = csrfTokenOf(incoming);
          const proven =
            token === undefined
              ? isProvenSameOrigin(incoming, trustProxy)
              : csrfTokenMatches(token, await this.csrfToken(session));
          if (!proven) return closeIfBodyUnread(request, csrfRefusal(path, CSRF_TOKEN_MESSAGE));
        }
        // The page polls getSession to learn when to warn: asking must not postpone the answer. Signing in
        // and out replace or end the session, and Continue Working extends it itself.
        const ownPath = path === SESSION_PATH || path === KEEP_ALIVE_PATH;
        if (!ownPath) await this.#touch(session, now);
        caller.session = session;
        caller.principal = principal;
      }
    }
    const response = await dispatch({ ...(env as NodeEnv), caller });
    if (!ended || caller.cookieWritten) return response;
    return withHeader(response, 'Set-Cookie', this.#cookie(scheme, ''));
  }
}

/** The caller the gate handed a request on with: every request that may change or carry a session has one. */
function callerAt(c: Context): Caller {
  const caller = callerOf(c);
  if (!caller)
    throw new Error(
      'The request did not pass the session gate with a caller (a read without a cookie cannot write the session cookie).',
    );
  return caller;
}
