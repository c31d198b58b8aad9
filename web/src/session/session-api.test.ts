import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../client/index';
import { invalidSessionMiddleware, onInvalidSession } from './invalid-session';
import { isInvalidSession, sessionActions } from './session-api';

const SESSION = {
  isGuest: false,
  userId: '0058d0000000002AAA',
  userName: 'user@northgate.example',
  displayName: 'Sales Representative',
  profileName: 'Standard User',
  idleExpiresAt: '2026-01-06T14:30:00.000Z',
  warnAt: '2026-01-06T14:29:30.000Z',
  absoluteExpiresAt: '2026-01-06T22:00:00.000Z',
  idleTimeoutSeconds: 1800,
  warningSeconds: 30,
  serverTime: '2026-01-06T14:00:00.000Z',
};
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const INVALID_SESSION = [{ errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' }];
const CSRF_REFUSED = [
  { errorCode: 'CSRF_TOKEN_INVALID', message: 'The X-CSRF-Token header is missing or does not match the session.' },
];

/** A server that issues CSRF tokens in turn ("token-1", "token-2", …) and accepts only the latest on unsafe calls. */
function fakeServer() {
  const log: string[] = [];
  let issued = 0;
  let sessionValid = true;
  const fetch = async (request: Request) => {
    const path = new URL(request.url).pathname;
    const token = request.headers.get('X-CSRF-Token');
    log.push(`${request.method} ${path}${token ? ` [${token}]` : ''}`);
    if (path.endsWith('/session/csrf'))
      return sessionValid ? json(200, { csrfToken: `token-${++issued}` }) : json(401, INVALID_SESSION);
    if (request.method === 'GET') return json(200, SESSION);
    if (request.method === 'POST' && path === '/services/auth/session') return json(200, SESSION);
    // A cookie without a valid session counts as none: nothing to check a token against.
    if (!sessionValid)
      return request.method === 'DELETE' ? new Response(null, { status: 204 }) : json(401, INVALID_SESSION);
    if (token !== `token-${issued}`) return json(403, CSRF_REFUSED);
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    return json(200, SESSION);
  };
  return {
    log,
    fetch,
    end: () => void (sessionValid = false),
  };
}

describe('sessionActions', () => {
  let server: ReturnType<typeof fakeServer>;
  let actions: ReturnType<typeof sessionActions>;

  beforeEach(() => {
    server = fakeServer();
    actions = sessionActions(createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch }));
  });

  it('Continue Working carries the session CSRF token (the client fetches it once)', async () => {
    await actions.keepSessionAlive();
    await actions.keepSessionAlive();
    expect(server.log).toEqual([
      'GET /services/data/v65.0/ui-api/session/csrf',
      'POST /services/auth/session/keep-alive [token-1]',
      'POST /services/auth/session/keep-alive [token-1]',
    ]);
  });

  it('reports a session the server no longer has as invalid', async () => {
    server.end();
    const error = await actions.keepSessionAlive().catch((cause: unknown) => cause);
    expect(isInvalidSession(error)).toBe(true);
  });

  it('signs out; calls nothing when the server has ended the session already; a gone session is signed out', async () => {
    await actions.signOut();
    expect(server.log).toEqual([
      'GET /services/data/v65.0/ui-api/session/csrf',
      'DELETE /services/auth/session [token-1]',
    ]);
    server.log.length = 0;
    server.end();
    await actions.signOut({ ended: true });
    expect(server.log).toEqual([]);
  });

  it('signs in without a token', async () => {
    const session = await actions.signIn({ username: 'user@northgate.example', password: 'secret' });
    expect(session.userId).toBe(SESSION.userId);
    expect(server.log).toEqual(['POST /services/auth/session']);
  });

  it('reads the session fresh every time (never from a cache)', async () => {
    await actions.getSession();
    await actions.getSession();
    expect(server.log).toEqual(['GET /services/auth/session', 'GET /services/auth/session']);
  });
});

describe('invalidSessionMiddleware', () => {
  const events: string[] = [];
  let unsubscribe = () => {};
  const originalWindow = globalThis.window;

  beforeEach(() => {
    // The middleware tells the page through window events: node has EventTarget, which is all it needs.
    (globalThis as { window?: unknown }).window = new EventTarget();
    unsubscribe = onInvalidSession(() => events.push('invalid session'));
  });

  afterEach(() => {
    unsubscribe();
    events.length = 0;
    (globalThis as { window?: unknown }).window = originalWindow;
  });

  function clientAnswering(response: () => Response) {
    const api = createApiClient({ baseUrl: 'http://store.test', fetch: async () => response() });
    api.use(invalidSessionMiddleware);
    return api;
  }

  it('tells the page about 401 INVALID_SESSION_ID from any call, and the caller still gets the error', async () => {
    const api = clientAnswering(() => json(401, INVALID_SESSION));
    const { error } = await api.GET('/services/data/v65.0/ui-api/session/csrf');
    expect(error).toEqual(INVALID_SESSION);
    expect(events).toEqual(['invalid session']);
  });

  it('stays quiet about other refusals: a wrong password, a CSRF refusal, a 401 without the platform body', async () => {
    await clientAnswering(() =>
      json(401, [{ errorCode: 'INVALID_LOGIN', message: 'Invalid username or password.' }]),
    ).POST('/services/auth/session', {
      body: { username: 'user@northgate.example', password: 'wrong' },
    });
    await clientAnswering(() => json(403, CSRF_REFUSED)).DELETE('/services/auth/session');
    await clientAnswering(() => new Response('<h1>Unauthorized</h1>', { status: 401 })).GET(
      '/services/data/v65.0/ui-api/session/csrf',
    );
    expect(events).toEqual([]);
  });
});
