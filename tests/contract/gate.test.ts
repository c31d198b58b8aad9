/**
 * The gate before routing (server/http/entry/gate.ts), over real HTTP and in process, on every test database: the
 * security headers and the caller reach every route, one added after the app is built included, with no
 * app-wide middleware; the limits are middleware only where they apply; an ended session's cookie is cleared
 * on any answer; a refusal that leaves a large body unread ends the connection.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalOf, sessionOf } from '../../server/http/sessions/principal.ts';
import { API_POLICY } from '../../server/http/answers/security-headers.ts';
import { APEX, CONTROLLER } from '../support/api.ts';
import { rawGet } from '../support/raw-http.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { GUEST_USER_ID, sessionCookieOf, signIn } from '../support/session.ts';

const CALLER_PATH = '/__gate/caller';
const DEFAULT_CONTACTS = `${APEX}/${CONTROLLER}/getDefaultContacts`;

/** A POST as sent on the wire, with its answer's status and headers (the body is not waited for). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) } },
      (response) => {
        resolve({ status: response.statusCode ?? 0, headers: response.headers });
        response.resume();
      },
    );
    // The server may answer and close before it has read the whole body.
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    );
    request.end(body);
  });
}

describe.each(databases())('the gate on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      database: kind,
      demoContacts: 3,
      app: { limits: { publicRequestsPerMinute: 1000, signInAttemptsPerWindow: 0, maxBodyBytes: 1024 } },
    });
    // A route of no operation, added after the app is built, as an embedding server would.
    server.app.get(CALLER_PATH, (c) =>
      c.json({ userId: principalOf(c).userId, sessionUserId: sessionOf(c)?.userId ?? null }),
    );
    server.app.post(CALLER_PATH, (c) => c.json({ userId: principalOf(c).userId }));
  });
  afterAll(() => server?.close());

  it('lets the router call a read of a route without middleware of its own directly, and puts the limits where they apply', () => {
    const handlersOf = (method: string, path: string) => server.app.router.match(method, path)[0].length;
    // The read: its handler alone. The write: the limits (the body size) first.
    expect(handlersOf('GET', CALLER_PATH)).toBe(1);
    expect(handlersOf('POST', CALLER_PATH)).toBe(2);
    // A read the public rate limit counts passes the limits (once, see the rate-limit tests), then its route's own.
    expect(handlersOf('GET', DEFAULT_CONTACTS)).toBeGreaterThan(2);
  });

  it('gives such a route the security headers, over a connection and in process', async () => {
    const wire = await rawGet(`${server.baseUrl}${CALLER_PATH}`);
    expect(wire.status).toBe(200);
    expect(wire.headers['x-content-type-options']).toBe('nosniff');
    expect(wire.headers['x-frame-options']).toBe('DENY');
    expect(wire.headers['content-security-policy']).toBe(API_POLICY);
    const inProcess = await server.app.request(CALLER_PATH);
    expect(inProcess.status).toBe(200);
    expect(inProcess.headers.get('x-content-type-options')).toBe('nosniff');
    expect(inProcess.headers.get('content-security-policy')).toBe(API_POLICY);
  });

  it('gives such a route the caller: a guest without a cookie, the user of a session cookie', async () => {
    const guest = await fetch(`${server.baseUrl}${CALLER_PATH}`);
    expect(await guest.json()).toEqual({ userId: GUEST_USER_ID, sessionUserId: null });
    const session = await signIn(server, 'standard');
    const user = await fetch(`${server.baseUrl}${CALLER_PATH}`, { headers: { Cookie: session.cookie } });
    expect(await user.json()).toEqual({ userId: session.userId, sessionUserId: session.userId });
    const written = await fetch(`${server.baseUrl}${CALLER_PATH}`, { method: 'POST', headers: session.headers });
    expect(await written.json()).toEqual({ userId: session.userId });
  });

  it("clears the cookie of a session that is over on such a route's answer, and keeps the caller a guest", async () => {
    const unknown = `sid=${'A'.repeat(43)}`;
    const answer = await fetch(`${server.baseUrl}${CALLER_PATH}`, { headers: { Cookie: unknown } });
    expect(await answer.json()).toEqual({ userId: GUEST_USER_ID, sessionUserId: null });
    expect(sessionCookieOf(answer)).toBe('sid=');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a cross-site write before routing, and ends the connection when it leaves a large body unread', async () => {
    const crossSite = { Origin: 'https://elsewhere.example', 'Content-Type': 'application/json' };
    const small = await rawPost(`${server.baseUrl}${CALLER_PATH}`, crossSite, Buffer.from('{}'));
    expect(small.status).toBe(403);
    expect(small.headers.connection).not.toBe('close');
    const large = await rawPost(`${server.baseUrl}${CALLER_PATH}`, crossSite, Buffer.alloc(256 * 1024, 0x20));
    expect(large.status).toBe(403);
    expect(large.headers.connection).toBe('close');
    expect(large.headers['content-security-policy']).toBe(API_POLICY);
  });
});
