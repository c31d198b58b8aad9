/**
 * CSRF over real HTTP, on every test database: the session's token or the browser's same-origin proof
 * (Sec-Fetch-Site, Origin) on state-changing calls, the refusal of other sites' calls whatever their content
 * type, and the session cookie's name and attributes over HTTPS behind a trusted proxy.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APEX, CONTROLLER, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, KEEP_ALIVE_PATH, SESSION_PATH, sessionApi, signIn, type SessionBody } from '../support/session.ts';

const START = Date.UTC(2026, 0, 6, 14, 0, 0);
const IDLE_SECONDS = 1800;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(databases())('CSRF on %s', (kind) => {
  let server: TestServer;
  let now = START;
  const clock = { now: () => now };
  const url = (path: string) => `${server.baseUrl}${path}`;
  const { getSession, keepAlive, csrf, signOut, signInWith } = sessionApi(() => server);

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      demoContacts: 3,
      app: { clock, session: { idleTimeoutSeconds: IDLE_SECONDS } },
    });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    now = START;
  });

  describe('CSRF', () => {
    const csrfRefused = (body: unknown) => {
      expect(body).toEqual([{ errorCode: 'CSRF_TOKEN_INVALID', message: expect.any(String) }]);
    };

    it('gives one token per session, stable for its life', async () => {
      const one = await signIn(server, 'standard');
      const two = await signIn(server, 'standard');
      expect(one.csrfToken).not.toBe(two.csrfToken);
      expect((await csrf(one.headers)).body).toEqual({ csrfToken: one.csrfToken });
    });

    it("refuses a state-changing call with the session cookie but neither token nor same-origin proof, a wrong token or another session's token", async () => {
      const session = await signIn(server, 'standard');
      const other = await signIn(server, 'admin');
      // The token with its last character changed to another one (never to itself).
      const last = session.csrfToken.slice(-1);
      const altered = `${session.csrfToken.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
      const attempts: Record<string, string>[] = [
        // No token, and nothing from the browser that shows the call to come from the site itself.
        { Cookie: session.cookie },
        // A sibling site (same-site) is not the site itself; nor is an Origin that contradicts Sec-Fetch-Site.
        { Cookie: session.cookie, 'Sec-Fetch-Site': 'same-site' },
        { Cookie: session.cookie, Origin: server.baseUrl, 'Sec-Fetch-Site': 'same-site' },
        { Cookie: session.cookie, 'Sec-Fetch-Site': 'none' },
        // A token that is sent must be the session's, even on a same-origin call.
        { ...session.headers, 'X-CSRF-Token': altered },
        { ...session.headers, 'X-CSRF-Token': other.csrfToken },
        { ...session.headers, 'X-CSRF-Token': '' },
      ];
      for (const headers of attempts) {
        const refused = await keepAlive(headers);
        expect(refused.status).toBe(403);
        csrfRefused(refused.body);
        const created = await fetch(url(`${UI_API}/records`), {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiName: 'APT_Contact_Us__c', fields: { APT_Company_Name__c: 'Refused' } }),
        });
        expect(created.status).toBe(403);
        csrfRefused(await created.json());
        const out = await signOut(headers);
        expect(out.status).toBe(403);
      }
      // None of the refused calls ended the session or counted as activity.
      now = START + IDLE_SECONDS * 1000 - 1;
      expect((await getSession(session.headers)).body).toMatchObject({
        isGuest: false,
        idleExpiresAt: iso(START + IDLE_SECONDS * 1000),
      });
    });

    it('accepts the token', async () => {
      const session = await signIn(server, 'standard');
      expect((await keepAlive(session.headers)).status).toBe(200);
      const created = await fetch(url(`${UI_API}/records`), {
        method: 'POST',
        headers: { ...session.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiName: 'APT_Contact_Us__c', fields: { APT_Company_Name__c: 'Accepted' } }),
      });
      expect(created.status).not.toBe(403);
      expect(created.status).not.toBe(401);
    });

    it('accepts a call without a token that the browser shows to come from the site itself (Sec-Fetch-Site: same-origin, or its own Origin)', async () => {
      const session = await signIn(server, 'standard');
      const proofs: Record<string, string>[] = [
        { 'Sec-Fetch-Site': 'same-origin' },
        { Origin: server.baseUrl },
        { Origin: server.baseUrl, 'Sec-Fetch-Site': 'same-origin' },
      ];
      for (const proof of proofs) {
        const headers = { Cookie: session.cookie, ...proof };
        const kept = await keepAlive(headers);
        expect(kept.status).toBe(200);
        expect(kept.body).toMatchObject({ isGuest: false });
        const created = await fetch(url(`${UI_API}/records`), {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ apiName: 'APT_Contact_Us__c', fields: { APT_Company_Name__c: 'Same origin' } }),
        });
        expect(created.status).not.toBe(403);
        expect(created.status).not.toBe(401);
      }
      // The same rule on the Apex transport: the page's own imperative call, as the platform's client makes it.
      const apex = await fetch(url(`${APEX}/${CONTROLLER}/getDefaultContacts`), {
        method: 'POST',
        headers: {
          Cookie: session.cookie,
          'Sec-Fetch-Site': 'same-origin',
          'Content-Type': 'application/json',
          'X-SFDC-Allow-Continuation': 'false',
        },
      });
      expect(apex.status).toBe(200);
      const signedOut = await signOut({ Cookie: session.cookie, Origin: server.baseUrl });
      expect(signedOut.status).toBe(204);
      expect((await getSession(session.headers)).body.isGuest).toBe(true);
    });

    it('refuses any state-changing call from another site, with or without a session, whatever its content type', async () => {
      const session = await signIn(server, 'standard');
      const crossSite = await signInWith(DEMO_USERS.standard.username, server.passwords.standard, {
        Origin: 'https://attacker.example',
      });
      expect(crossSite.status).toBe(403);
      csrfRefused(crossSite.body);
      expect(crossSite.headers.getSetCookie()).toEqual([]);
      const forged = await fetch(url(SESSION_PATH), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', Origin: 'http://attacker.example' },
        body: JSON.stringify({ username: DEMO_USERS.standard.username, password: server.passwords.standard }),
      });
      expect(forged.status).toBe(403);
      const withCookie = await keepAlive({ ...session.headers, Origin: 'null' });
      expect(withCookie.status).toBe(403);
      const fetchMetadata = await fetch(url(KEEP_ALIVE_PATH), {
        method: 'POST',
        headers: { Cookie: session.cookie, 'X-CSRF-Token': session.csrfToken, 'Sec-Fetch-Site': 'cross-site' },
      });
      expect(fetchMetadata.status).toBe(403);
      // On the Apex transport the refusal comes in that transport's error shape.
      const apex = await fetch(url(`${APEX}/${CONTROLLER}/getDefaultContacts`), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', Origin: 'https://attacker.example' },
        body: '{}',
      });
      expect(apex.status).toBe(403);
      expect(await apex.json()).toEqual({ errorMessage: expect.any(String) });
    });

    it('lets a same-origin or Origin-less guest call through without a token', async () => {
      const sameOrigin = await signInWith(DEMO_USERS.standard.username, server.passwords.standard, {
        Origin: server.baseUrl,
      });
      expect(sameOrigin.status).toBe(200);
      const noOrigin = await signInWith(DEMO_USERS.standard.username, server.passwords.standard);
      expect(noOrigin.status).toBe(200);
    });
  });

  describe('cookies over HTTPS', () => {
    it('behind a trusted proxy that says https: __Host-sid with Secure, and the plain sid is not read', async () => {
      const proxied = await startTestServer({ database: kind, demoContacts: 0, app: { clock, trustProxy: true } });
      try {
        const https = { 'X-Forwarded-Proto': 'https' };
        const { status, headers } = await callOperation('signIn', `${proxied.baseUrl}${SESSION_PATH}`, {
          method: 'POST',
          headers: { ...https, 'Content-Type': 'application/json', Origin: proxied.baseUrl.replace('http:', 'https:') },
          body: JSON.stringify({ username: DEMO_USERS.admin.username, password: proxied.passwords.admin }),
        });
        expect(status).toBe(200);
        const setCookie = headers.getSetCookie()[0];
        expect(setCookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
        const id = /^__Host-sid=([^;]+)/.exec(setCookie)![1];
        const get = (headers: Record<string, string>) =>
          callOperation<SessionBody>('getSession', `${proxied.baseUrl}${SESSION_PATH}`, { headers });
        expect((await get({ ...https, Cookie: `__Host-sid=${id}` })).body.isGuest).toBe(false);
        expect((await get({ ...https, Cookie: `sid=${id}` })).body.isGuest).toBe(true);
        // An http Origin is another origin than the https page.
        const downgraded = await fetch(`${proxied.baseUrl}${SESSION_PATH}`, {
          method: 'DELETE',
          headers: { ...https, Cookie: `__Host-sid=${id}`, Origin: proxied.baseUrl },
        });
        expect(downgraded.status).toBe(403);
      } finally {
        await proxied.close();
      }
    });

    it('ignores X-Forwarded-Proto unless the proxy is trusted', async () => {
      const { headers } = await signInWith(DEMO_USERS.standard.username, server.passwords.standard, {
        'X-Forwarded-Proto': 'https',
      });
      expect(headers.getSetCookie()[0]).toMatch(/^sid=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
    });
  });
});
