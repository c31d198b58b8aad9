/**
 * The typed client's CSRF middleware against the real server: it fetches the session's token once, sends it
 * on state-changing calls, forgets it when the session changes, and retries once after a 403 for its token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../client/index.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { CSRF_PATH, DEMO_USERS, sessionCookieOf } from '../support/session.ts';

/** A browser's part: one cookie jar, the page's Origin, and a log of the calls made. */
function browser(server: TestServer) {
  let cookie: string | null = null;
  const calls: string[] = [];
  const fetchWithJar = async (request: Request) => {
    const headers = new Headers(request.headers);
    if (cookie) headers.set('Cookie', cookie);
    headers.set('Origin', server.baseUrl);
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    const response = await fetch(new Request(request, { headers }));
    const set = sessionCookieOf(response);
    if (set !== null) cookie = set.endsWith('=') ? null : set;
    return response;
  };
  return {
    calls,
    setCookie: (value: string | null) => (cookie = value),
    client: createApiClient({ baseUrl: server.baseUrl, fetch: fetchWithJar }),
  };
}

describe.each(databases())('client CSRF middleware on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 0 });
  });
  afterAll(() => server?.close());

  const credentials = () => ({ username: DEMO_USERS.standard.username, password: server.passwords.standard });

  it('fetches the token once for a session and sends it on every state-changing call', async () => {
    const { client, calls } = browser(server);
    expect((await client.POST('/services/auth/session', { body: credentials() })).response.status).toBe(200);
    expect((await client.POST('/services/auth/session/keep-alive')).response.status).toBe(200);
    expect((await client.POST('/services/auth/session/keep-alive')).response.status).toBe(200);
    expect(calls.filter((call) => call === `GET ${CSRF_PATH}`)).toHaveLength(1);
    expect((await client.DELETE('/services/auth/session')).response.status).toBe(204);
    const session = await client.GET('/services/auth/session');
    expect(session.data?.isGuest).toBe(true);
  });

  it('takes a new token after signing in again, and retries once with a fresh token after a 403', async () => {
    const { client, calls, setCookie } = browser(server);
    await client.POST('/services/auth/session', { body: credentials() });
    await client.POST('/services/auth/session/keep-alive');
    // Another tab signs in: this jar now holds a session whose token the middleware has not seen.
    const other = await fetch(`${server.baseUrl}/services/auth/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(credentials()),
    });
    setCookie(sessionCookieOf(other));
    const before = calls.length;
    const kept = await client.POST('/services/auth/session/keep-alive');
    expect(kept.response.status).toBe(200);
    expect(calls.slice(before)).toEqual([
      'POST /services/auth/session/keep-alive',
      `GET ${CSRF_PATH}`,
      'POST /services/auth/session/keep-alive',
    ]);
  });

  it('sends no token for a guest, and does not retry a refusal that a token cannot fix', async () => {
    const { client, calls } = browser(server);
    expect((await client.DELETE('/services/auth/session')).response.status).toBe(204);
    const keepAlive = await client.POST('/services/auth/session/keep-alive');
    expect(keepAlive.response.status).toBe(401);
    expect(keepAlive.error).toEqual([{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }]);
    expect(calls.filter((call) => call.startsWith('POST')).length).toBe(1);
  });
});
