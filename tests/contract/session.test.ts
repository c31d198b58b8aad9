/**
 * Sessions over real HTTP, on every test database, with a clock the tests move: sign-in and id rotation,
 * idle and absolute expiry at their exact boundaries, Continue Working, Log Out, the 401 of operations that
 * need a user, and the users behind them. CSRF and cookies over HTTPS: session-csrf.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APEX, CONTROLLER, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import {
  DEMO_USERS,
  GUEST_USER_ID,
  SESSION_PATH,
  sessionApi,
  sessionCookieOf,
  signIn,
  type ErrorList,
  type SessionBody,
  type TestSession,
} from '../support/session.ts';

type Session = SessionBody;

const START = Date.UTC(2026, 0, 6, 14, 0, 0);
const IDLE_SECONDS = 1800;
const ABSOLUTE_SECONDS = 3 * 3600;
const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(databases())('sessions on %s', (kind) => {
  let server: TestServer;
  let now = START;
  const clock = { now: () => now };
  const url = (path: string) => `${server.baseUrl}${path}`;

  const { getSession, keepAlive, csrf, signOut, signInWith } = sessionApi(() => server);
  const storedSessions = async (userId: string) =>
    (
      await server.db.query<{ id_hash: string }>('SELECT id_hash FROM user_session WHERE user_id = $1', [userId])
    ).rows.map((row) => row.id_hash);
  const cookieValue = (session: TestSession) => session.cookie.split('=')[1];

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      demoContacts: 3,
      app: { clock, session: { idleTimeoutSeconds: IDLE_SECONDS, absoluteTimeoutSeconds: ABSOLUTE_SECONDS } },
    });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    now = START;
  });

  describe('getSession', () => {
    it('answers a guest with the site guest user and no expiry, and sets no cookie', async () => {
      const { status, body, headers } = await getSession();
      expect(status).toBe(200);
      expect(body).toEqual({
        isGuest: true,
        userId: GUEST_USER_ID,
        userName: null,
        displayName: null,
        profileName: 'Contact Us Profile',
        idleExpiresAt: null,
        warnAt: null,
        absoluteExpiresAt: null,
        idleTimeoutSeconds: null,
        warningSeconds: 30,
        serverTime: iso(START),
      });
      expect(headers.getSetCookie()).toEqual([]);
    });
  });

  describe('signIn', () => {
    it('starts a session: the representation from the server clock, an HttpOnly SameSite=Lax cookie, only its hash stored', async () => {
      const { status, body, headers } = await signInWith('USER@northgate.example', server.passwords.standard);
      expect(status).toBe(200);
      expect(body).toEqual({
        isGuest: false,
        userId: DEMO_USERS.standard.userId,
        userName: 'user@northgate.example',
        displayName: 'Sales Representative',
        profileName: 'Standard User',
        idleExpiresAt: iso(START + IDLE_SECONDS * 1000),
        warnAt: iso(START + (IDLE_SECONDS - 30) * 1000),
        absoluteExpiresAt: iso(START + ABSOLUTE_SECONDS * 1000),
        idleTimeoutSeconds: IDLE_SECONDS,
        warningSeconds: 30,
        serverTime: iso(START),
      });
      const [setCookie, ...more] = headers.getSetCookie();
      expect(more).toEqual([]);
      expect(setCookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
      const id = /^sid=([^;]+)/.exec(setCookie)![1];
      expect(await storedSessions(DEMO_USERS.standard.userId)).toContain(sha256(id));
      const { rows } = await server.db.query('SELECT 1 FROM user_session WHERE id_hash = $1', [id]);
      expect(rows).toEqual([]);
      const signedIn = await getSession({ Cookie: `sid=${id}` });
      expect(signedIn.body).toMatchObject({ isGuest: false, userId: DEMO_USERS.standard.userId });
    });

    it('gives the administrator its profile', async () => {
      const session = await signIn(server, 'admin');
      const { body } = await getSession(session.headers);
      expect(body).toMatchObject({
        isGuest: false,
        userId: DEMO_USERS.admin.userId,
        profileName: 'System Administrator',
        displayName: 'Store Administrator',
      });
    });

    it('answers a wrong password, an unknown user and the guest user alike: 401 INVALID_LOGIN, no cookie', async () => {
      const expected = [{ errorCode: 'INVALID_LOGIN', message: 'Invalid username or password.' }];
      for (const [username, password] of [
        ['user@northgate.example', `${server.passwords.standard}x`],
        ['user@northgate.example', server.passwords.admin],
        ['nobody@northgate.example', server.passwords.standard],
        ['guest@northgate.example', server.passwords.standard],
      ]) {
        const { status, body, headers } = await signInWith(username, password);
        expect(status, username).toBe(401);
        expect(body).toEqual(expected);
        expect(headers.getSetCookie()).toEqual([]);
      }
    });

    it('refuses a malformed body with 400 in the platform shape', async () => {
      const missing = await callOperation<ErrorList>('signIn', url(SESSION_PATH), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'user@northgate.example' }),
      });
      expect(missing.status).toBe(400);
      expect(missing.body[0].errorCode).toBe('INVALID_INPUT');
      const broken = await callOperation<ErrorList>('signIn', url(SESSION_PATH), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{',
      });
      expect(broken.status).toBe(400);
      expect(broken.text).not.toMatch(/at .*\.ts:\d+/);
    });

    it('issues a new id at every sign-in and destroys the session the request carried', async () => {
      const first = await signIn(server, 'standard');
      const again = await signInWith(DEMO_USERS.standard.username, server.passwords.standard, first.headers);
      expect(again.status).toBe(200);
      const rotated = sessionCookieOf(new Response(null, { headers: again.headers }));
      expect(rotated).toMatch(/^sid=[A-Za-z0-9_-]{43}$/);
      expect(rotated).not.toBe(first.cookie);
      expect(await storedSessions(DEMO_USERS.standard.userId)).not.toContain(sha256(cookieValue(first)));
      const old = await getSession({ Cookie: first.cookie });
      expect(old.body.isGuest).toBe(true);
      expect((await getSession({ Cookie: rotated! })).body.isGuest).toBe(false);
    });

    it('does not adopt an id planted before sign-in', async () => {
      const planted = `sid=${'A'.repeat(43)}`;
      const { status, headers } = await signInWith(DEMO_USERS.standard.username, server.passwords.standard, {
        Cookie: planted,
      });
      expect(status).toBe(200);
      expect(headers.getSetCookie().filter((cookie) => cookie.startsWith('sid='))).toHaveLength(1);
      expect(headers.getSetCookie()[0]).not.toContain('A'.repeat(43));
    });
  });

  describe('idle expiry', () => {
    it('holds until one millisecond before the idle timeout and ends exactly at it; getSession does not extend it', async () => {
      const session = await signIn(server, 'standard');
      now = START + IDLE_SECONDS * 1000 - 1;
      const before = await getSession(session.headers);
      expect(before.body).toMatchObject({ isGuest: false, idleExpiresAt: iso(START + IDLE_SECONDS * 1000) });
      expect(before.headers.getSetCookie()).toEqual([]);
      now = START + IDLE_SECONDS * 1000;
      const after = await getSession(session.headers);
      expect(after.body).toMatchObject({ isGuest: true, userId: GUEST_USER_ID });
      expect(after.headers.getSetCookie()).toEqual([
        'sid=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ]);
      expect(await storedSessions(DEMO_USERS.standard.userId)).not.toContain(sha256(cookieValue(session)));
      // Coming back (even to the exact instant before, on a clock set back) does not revive it.
      now = START + 1000;
      expect((await getSession(session.headers)).body.isGuest).toBe(true);
    });

    it('is moved on by activity, and then ends exactly one idle timeout after that activity', async () => {
      const session = await signIn(server, 'standard');
      now = START + 10 * 60_000;
      expect((await csrf(session.headers)).status).toBe(200);
      const extended = START + 10 * 60_000 + IDLE_SECONDS * 1000;
      now = extended - 1000;
      expect((await getSession(session.headers)).body).toMatchObject({
        isGuest: false,
        idleExpiresAt: iso(extended),
        warnAt: iso(extended - 30_000),
      });
      now = extended;
      expect((await csrf(session.headers)).body).toEqual(INVALID_SESSION);
    });

    it('writes the extension only once a sixtieth of the idle timeout has passed, and reports the expiry it enforces', async () => {
      const session = await signIn(server, 'standard');
      const step = (IDLE_SECONDS * 1000) / 60;
      now = START + step - 1;
      expect((await csrf(session.headers)).status).toBe(200);
      expect((await getSession(session.headers)).body.idleExpiresAt).toBe(iso(START + IDLE_SECONDS * 1000));
      now = START + IDLE_SECONDS * 1000 - 1;
      expect((await getSession(session.headers)).body.isGuest).toBe(false);
      now = START + IDLE_SECONDS * 1000;
      expect((await getSession(session.headers)).body.isGuest).toBe(true);

      now = START;
      const next = await signIn(server, 'standard');
      now = START + step;
      expect((await csrf(next.headers)).status).toBe(200);
      expect((await getSession(next.headers)).body.idleExpiresAt).toBe(iso(START + step + IDLE_SECONDS * 1000));
    });

    it('answers 401 INVALID_SESSION_ID on an operation that needs a user, and clears the cookie', async () => {
      const session = await signIn(server, 'standard');
      now = START + IDLE_SECONDS * 1000;
      const { status, body, headers } = await csrf(session.headers);
      expect(status).toBe(401);
      expect(body).toEqual(INVALID_SESSION);
      expect(headers.getSetCookie()[0]).toMatch(/^sid=; .*Max-Age=0/);
    });

    it('treats a session cookie that cannot be a session id as ended, each time it comes, and other cookies as none', async () => {
      for (let i = 0; i < 2; i++) {
        const malformed = await csrf({ Cookie: 'theme=dark; sid=not-a-session-id' });
        expect(malformed.status).toBe(401);
        expect(malformed.headers.getSetCookie()[0]).toMatch(/^sid=; .*Max-Age=0/);
      }
      const others = await csrf({ Cookie: 'theme=dark; sidebar=open' });
      expect(others.status).toBe(401);
      expect(others.headers.getSetCookie()).toEqual([]);
    });

    it('continues as a guest on an operation a guest may call', async () => {
      const session = await signIn(server, 'standard');
      now = START + IDLE_SECONDS * 1000;
      const response = await callOperation('getDefaultContacts', url(`${APEX}/${CONTROLLER}/getDefaultContacts`), {
        headers: { Cookie: session.cookie },
      });
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie()[0]).toMatch(/^sid=; .*Max-Age=0/);
    });
  });

  describe('absolute expiry', () => {
    it('ends the session at the absolute timeout however active the user is; idle expiry never passes it', async () => {
      const session = await signIn(server, 'standard');
      const absolute = START + ABSOLUTE_SECONDS * 1000;
      for (now = START + 25 * 60_000; now < absolute - 60_000; now += 25 * 60_000) {
        expect((await keepAlive(session.headers)).status).toBe(200);
      }
      now = absolute - 1000;
      const last = await keepAlive(session.headers);
      expect(last.status).toBe(200);
      expect(last.body).toMatchObject({
        isGuest: false,
        idleExpiresAt: iso(absolute),
        absoluteExpiresAt: iso(absolute),
        warnAt: iso(absolute - 30_000),
      });
      now = absolute;
      const over = await keepAlive(session.headers);
      expect(over.status).toBe(401);
      expect(over.body).toEqual(INVALID_SESSION);
    });

    it('defaults to 30 minutes idle and 8 hours absolute', async () => {
      const defaults = await startTestServer({ database: kind, demoContacts: 0, app: { clock } });
      try {
        const session = await signIn(defaults, 'standard');
        const { body } = await callOperation<Session>('getSession', `${defaults.baseUrl}${SESSION_PATH}`, {
          headers: session.headers,
        });
        expect(body).toMatchObject({
          idleTimeoutSeconds: 1800,
          idleExpiresAt: iso(START + 1800_000),
          absoluteExpiresAt: iso(START + 8 * 3600_000),
        });
      } finally {
        await defaults.close();
      }
    });
  });

  describe('keepSessionAlive (Continue Working)', () => {
    it('moves the idle expiry on by the idle timeout from now', async () => {
      const session = await signIn(server, 'standard');
      now = START + IDLE_SECONDS * 1000 - 20_000;
      const { status, body } = await keepAlive(session.headers);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        isGuest: false,
        serverTime: iso(now),
        idleExpiresAt: iso(now + IDLE_SECONDS * 1000),
        warnAt: iso(now + (IDLE_SECONDS - 30) * 1000),
      });
      const kept = now + IDLE_SECONDS * 1000;
      now = kept - 1;
      expect((await getSession(session.headers)).body.isGuest).toBe(false);
      now = kept;
      expect((await getSession(session.headers)).body.isGuest).toBe(true);
    });

    it('answers a guest 401 INVALID_SESSION_ID', async () => {
      const { status, body } = await keepAlive({ Origin: server.baseUrl });
      expect(status).toBe(401);
      expect(body).toEqual(INVALID_SESSION);
    });
  });

  describe('signOut (Log Out)', () => {
    it('destroys the session on the server and clears the cookie', async () => {
      const session = await signIn(server, 'standard');
      const { status, headers, text } = await signOut(session.headers);
      expect(status).toBe(204);
      expect(text).toBe('');
      expect(headers.getSetCookie()).toEqual([
        'sid=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
      ]);
      expect(await storedSessions(DEMO_USERS.standard.userId)).not.toContain(sha256(cookieValue(session)));
      expect((await getSession(session.headers)).body.isGuest).toBe(true);
      expect((await csrf(session.headers)).status).toBe(401);
    });

    it('answers a guest 204 too', async () => {
      const { status } = await signOut({ Origin: server.baseUrl });
      expect(status).toBe(204);
      expect((await signOut({})).status).toBe(204);
    });
  });

  describe('the 401 of operations that need a user', () => {
    it('answers a guest 401 INVALID_SESSION_ID on getCsrfToken and on a user-only operation, implemented or not', async () => {
      expect(await csrf({})).toMatchObject({ status: 401, body: INVALID_SESSION });
      const navItems = await callOperation<ErrorList>('getNavItems', url(`${UI_API}/nav-items`));
      expect(navItems.status).toBe(401);
      expect(navItems.body).toEqual(INVALID_SESSION);
    });

    it("marks cached answers as depending on the session cookie, so that a guest's copy is not reused after sign-in", async () => {
      const response = await callOperation('getObjectInfo', url(`${UI_API}/object-info/APT_Contact_Us__c`));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      expect(response.headers.get('vary')).toMatch(/\bCookie\b/);
    });

    it('lets a signed-in user through', async () => {
      const session = await signIn(server, 'standard');
      const navItems = await fetch(url(`${UI_API}/nav-items`), { headers: session.headers });
      expect(navItems.status).not.toBe(401);
    });
  });

  describe('users', () => {
    it('stores passwords hashed with scrypt under a per-user salt', async () => {
      const { rows } = await server.db.query<{ user_id: string; password_hash: string }>(
        'SELECT user_id, password_hash FROM user_credential ORDER BY user_id',
      );
      expect(rows.map((row) => row.user_id)).toEqual([DEMO_USERS.admin.userId, DEMO_USERS.standard.userId]);
      const salts = rows.map((row) => row.password_hash.split('$')[4]);
      for (const row of rows)
        expect(row.password_hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      expect(new Set(salts).size).toBe(2);
      for (const row of rows) {
        expect(row.password_hash).not.toContain(server.passwords.admin);
        expect(row.password_hash).not.toContain(server.passwords.standard);
      }
    });

    it('seeds the demo users as User records, the guest user included', async () => {
      const { rows } = await server.db.query<{ id: string; fields: Record<string, unknown> }>(
        `SELECT id, fields FROM record WHERE object_api_name = 'User' ORDER BY id`,
      );
      expect(rows.map((row) => [row.id, row.fields.Username, row.fields.UserType, row.fields.IsActive])).toEqual([
        [DEMO_USERS.admin.userId, 'admin@northgate.example', 'Standard', true],
        [DEMO_USERS.standard.userId, 'user@northgate.example', 'Standard', true],
        [GUEST_USER_ID, 'guest@northgate.example', 'Guest', true],
      ]);
    });

    it('ends the sessions of a user who is deactivated', async () => {
      const session = await signIn(server, 'admin');
      await server.db.query(`UPDATE record SET fields = fields || '{"IsActive": false}'::jsonb WHERE id = $1`, [
        DEMO_USERS.admin.userId,
      ]);
      try {
        expect((await getSession(session.headers)).body.isGuest).toBe(true);
        expect((await signInWith(DEMO_USERS.admin.username, server.passwords.admin)).status).toBe(401);
      } finally {
        await server.db.query(`UPDATE record SET fields = fields || '{"IsActive": true}'::jsonb WHERE id = $1`, [
          DEMO_USERS.admin.userId,
        ]);
      }
    });
  });
});
