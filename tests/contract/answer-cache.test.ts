/**
 * Replayed before routing: a signed-in user's metadata (server/http/answers/answer-cache.ts): a repeated GET of an
 * object info or a layout is answered before routing and the middleware chain. Its answers must be the whole
 * way's, header for header; it must answer only the holder of a session the middleware would accept without
 * reading or writing anything, with the representation of that caller's profile and of the current metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_API } from '../support/api.ts';
import { expectValidResponse } from '../support/contract.ts';
import { expectFrontAsWholeWay } from '../support/replay.ts';
import { rawGet, waitFor } from '../support/raw-http.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { SESSION_PATH, signIn, type TestSession } from '../support/session.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const OBJECT_INFO = `${UI_API}/object-info/Account`;
const LAYOUT = `${UI_API}/layout/Account?layoutType=Full&mode=View`;
/** An object whose info differs by profile: the standard user may not edit one of its fields. */
const CONTACT_US_INFO = `${UI_API}/object-info/APT_Contact_Us__c`;
const IDLE_SECONDS = 600;

describe.skipIf(!CACHES_ON).each(databases())(
  'metadata answered before routing on %s (needs the caches on: not CACHES=off)',
  (kind) => {
    let server: TestServer;
    let admin: TestSession;
    let standard: TestSession;
    let now = Date.now();
    const clock = { now: () => now };
    const answered = () => server.app.answerCache.answered;
    const as = (session: TestSession, headers: Record<string, string> = {}) => ({ Cookie: session.cookie, ...headers });

    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 3,
        app: { trustProxy: true, clock, session: { idleTimeoutSeconds: IDLE_SECONDS } },
      });
      admin = await signIn(server, 'admin');
      standard = await signIn(server, 'standard');
    });
    afterAll(() => server?.close());

    const variants: [string, Record<string, string>][] = [
      ['plain', {}],
      ['in Brotli', { 'Accept-Encoding': 'gzip, deflate, br' }],
      ['over HTTPS through the trusted proxy', { 'X-Forwarded-Proto': 'https', 'Accept-Encoding': 'br' }],
    ];

    it.each(variants)(
      'gives a repeated GET (%s) the same status, headers and body as the router',
      async (_name, headers) => {
        // Over HTTPS the session cookie has its __Host- name: sign in that way for that variant.
        const session = headers['X-Forwarded-Proto'] === 'https' ? await signInOverHttps(server) : admin;
        for (const path of [OBJECT_INFO, LAYOUT]) {
          await expectFrontAsWholeWay(server.baseUrl + path, as(session, headers), answered, 2);
        }
      },
    );

    it('sends the security headers, the cache headers and a contract-valid body', async () => {
      const url = server.baseUrl + OBJECT_INFO;
      await rawGet(url, as(admin));
      const before = answered();
      const answer = await rawGet(url, as(admin));
      expect(answered()).toBe(before + 1);
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-security-policy': expect.stringContaining("default-src 'none'"),
        'cache-control': 'private, max-age=900',
        vary: 'Accept-Encoding, Cookie',
        etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
      });
      expect(answer.headers['strict-transport-security']).toBeUndefined();
      expectValidResponse('getObjectInfo', 200, JSON.parse(answer.body.toString()));
    });

    it("answers each caller with its own profile's representation, and a guest not at all", async () => {
      const url = server.baseUrl + CONTACT_US_INFO;
      await rawGet(url, as(admin));
      const adminInfo = await rawGet(url, as(admin));
      // The administrator's object info was noted; the standard user's is not yet: the router answers it.
      const before = answered();
      const first = await rawGet(url, as(standard));
      expect(answered()).toBe(before);
      const again = await rawGet(url, as(standard));
      expect(answered()).toBe(before + 1);
      expect(again.body.equals(first.body)).toBe(true);
      expect(JSON.parse(again.body.toString()).eTag).not.toBe(JSON.parse(adminInfo.body.toString()).eTag);

      // A guest, or a session nobody holds, goes through the router: a layout is for signed-in users only.
      const layout = server.baseUrl + LAYOUT;
      await rawGet(layout, as(admin));
      await rawGet(layout, as(admin));
      const noted = answered();
      expect((await rawGet(layout)).status).toBe(401);
      expect((await rawGet(layout, { Cookie: `sid=${'x'.repeat(43)}` })).status).toBe(401);
      expect(answered()).toBe(noted);
    });

    it('leaves to the router a conditional request, HEAD, and another spelling of the target', async () => {
      const url = server.baseUrl + OBJECT_INFO;
      const answer = await rawGet(url, as(admin));
      const before = answered();
      const notModified = await rawGet(url, as(admin, { 'If-None-Match': answer.headers.etag as string }));
      expect(notModified.status).toBe(304);
      const head = await rawGet(url, as(admin), 'HEAD');
      expect(head.status).toBe(200);
      const otherCase = await rawGet(`${server.baseUrl}${UI_API}/object-info/account`, as(admin));
      expect(otherCase.status).toBe(200);
      expect(answered()).toBe(before);
    });

    it('answers again only once the router answered after the metadata changed', async () => {
      const url = server.baseUrl + OBJECT_INFO;
      const before = await rawGet(url, as(admin));
      await rawGet(url, as(admin));
      const count = answered();
      await server.db.query(
        `UPDATE sobject SET definition = jsonb_set(definition, '{label}', '"Renamed"') WHERE api_name = 'Account'`,
      );
      try {
        await waitFor(async () => JSON.parse((await rawGet(url, as(admin))).body.toString()).label === 'Renamed');
        expect(answered()).toBe(count);
        const renamed = await rawGet(url, as(admin));
        expect(answered()).toBe(count + 1);
        expect(JSON.parse(renamed.body.toString()).label).toBe('Renamed');
      } finally {
        await server.db.query(
          `UPDATE sobject SET definition = jsonb_set(definition, '{label}', $1::jsonb) WHERE api_name = 'Account'`,
          [JSON.stringify(JSON.parse(before.body.toString()).label)],
        );
      }
      await waitFor(async () => (await rawGet(url, as(admin))).body.equals(before.body));
    });

    it('leaves to the router a request that moves the idle expiry on, and an ended session', async () => {
      const url = server.baseUrl + OBJECT_INFO;
      await rawGet(url, as(admin));
      await rawGet(url, as(admin));
      const stored = async () =>
        (
          await server.db.query<{ at: Date }>(
            'SELECT idle_expires_at AS at FROM user_session WHERE user_id = $1 ORDER BY idle_expires_at DESC LIMIT 1',
            [admin.userId],
          )
        ).rows[0].at.getTime();
      const expiry = await stored();
      now += 60_000;
      const before = answered();
      const touched = await rawGet(url, as(admin));
      expect(touched.status).toBe(200);
      expect(answered()).toBe(before);
      expect(await stored()).toBeGreaterThan(expiry);

      const session = await signIn(server, 'admin');
      await rawGet(url, as(session));
      await rawGet(url, as(session));
      const signedOut = await fetch(server.baseUrl + SESSION_PATH, { method: 'DELETE', headers: session.headers });
      expect(signedOut.status).toBeLessThan(300);
      // Without its session the caller is a guest, for whom Account does not exist.
      const after = answered();
      const ended = await rawGet(url, as(session));
      expect(ended.status).toBe(404);
      expect(answered()).toBe(after);

      now += (IDLE_SECONDS + 1) * 1000;
      const expired = await rawGet(url, as(admin));
      expect(expired.status).toBe(404);
      expect(answered()).toBe(after);
    });
  },
);

/** A session of the administrator as a client over HTTPS sends it: in the cookie named __Host-sid. */
async function signInOverHttps(server: TestServer): Promise<TestSession> {
  const session = await signIn(server, 'admin');
  return { ...session, cookie: `__Host-${session.cookie}` };
}

describe.skipIf(!CACHES_ON)('the public rate limit before routing (needs the caches on: not CACHES=off)', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it("counts a signed-in user's object infos as the middleware does, and refuses past the limit", async () => {
    server = await startTestServer({ demoContacts: 3, app: { limits: { publicRequestsPerMinute: 6 } } });
    // Signing in fetches a CSRF token, which the public limit does not count (a signed-in user's operation).
    const admin = await signIn(server, 'admin');
    const url = server.baseUrl + OBJECT_INFO;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await rawGet(url, { Cookie: admin.cookie })).status);
    expect(server.app.answerCache.answered).toBeGreaterThan(0);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});
