/**
 * Signing in from tests: the demo users of a test server (startTestServer generates their passwords) and the
 * headers a signed-in call sends (cookie, CSRF token, same-origin Origin).
 */
import { callOperation } from './contract.ts';
import type { components } from '../../generated/types.ts';
import { contract } from './contract.ts';
import type { TestServer } from './server.ts';
import { operationTable, type OperationId } from '../../generated/operations.ts';

export const DEMO_USERS = {
  admin: { username: 'admin@northgate.example', userId: '0058d0000000001AAA', profileName: 'System Administrator' },
  standard: { username: 'user@northgate.example', userId: '0058d0000000002AAA', profileName: 'Standard User' },
} as const;
export const GUEST_USER_ID = '0058d0000000003AAA';

export const SESSION_PATH = '/services/auth/session';
export const KEEP_ALIVE_PATH = '/services/auth/session/keep-alive';
export const CSRF_PATH = '/services/data/v65.0/ui-api/session/csrf';

export interface TestSession {
  /** "sid=..." */
  cookie: string;
  csrfToken: string;
  userId: string;
  /** Cookie, X-CSRF-Token and Origin: send these on every call made as this user. */
  headers: Record<string, string>;
}

/** The name=value of the session cookie a response sets (empty value when it clears it), or null. */
export function sessionCookieOf(response: Response): string | null {
  for (const header of response.headers.getSetCookie()) {
    const match = /^((?:__Host-)?sid)=([^;]*)/.exec(header);
    if (match) return `${match[1]}=${match[2]}`;
  }
  return null;
}

export async function signIn(server: TestServer, who: 'admin' | 'standard'): Promise<TestSession> {
  const user = DEMO_USERS[who];
  const response = await fetch(`${server.baseUrl}${SESSION_PATH}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.baseUrl },
    body: JSON.stringify({ username: user.username, password: server.passwords[who] }),
  });
  if (response.status !== 200) throw new Error(`signIn(${who}) answered ${response.status}: ${await response.text()}`);
  const cookie = sessionCookieOf(response);
  if (!cookie) throw new Error(`signIn(${who}) set no session cookie`);
  const tokenResponse = await fetch(`${server.baseUrl}${CSRF_PATH}`, { headers: { Cookie: cookie } });
  if (tokenResponse.status !== 200)
    throw new Error(`getCsrfToken answered ${tokenResponse.status}: ${await tokenResponse.text()}`);
  const { csrfToken } = (await tokenResponse.json()) as { csrfToken: string };
  return {
    cookie,
    csrfToken,
    userId: user.userId,
    headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken, Origin: server.baseUrl },
  };
}

/** Whether the contract lets only a signed-in user call the operation: its security leaves out anonymous ({}). */
export function needsUser(operation: { operation: Record<string, unknown> }): boolean {
  // An operation without its own security has the document's.
  const security = (operation.operation.security ?? contract.security) as Record<string, unknown>[] | undefined;
  return Array.isArray(security) && !security.some((requirement) => Object.keys(requirement).length === 0);
}

export type SessionBody = components['schemas']['SessionRepresentation'];
export type ErrorList = components['schemas']['ErrorList'];

/** The session operations of a server, each checked against the contract (the server is read at each call). */
export function sessionApi(server: () => TestServer) {
  const url = (path: string) => `${server().baseUrl}${path}`;
  return {
    getSession: (headers: Record<string, string> = {}) =>
      callOperation<SessionBody>('getSession', url(SESSION_PATH), { headers }),
    keepAlive: (headers: Record<string, string>) =>
      callOperation<SessionBody | ErrorList>('keepSessionAlive', url(KEEP_ALIVE_PATH), { method: 'POST', headers }),
    csrf: (headers: Record<string, string>) =>
      callOperation<{ csrfToken: string } | ErrorList>('getCsrfToken', url(CSRF_PATH), { headers }),
    signOut: (headers: Record<string, string>) =>
      callOperation<ErrorList | undefined>('signOut', url(SESSION_PATH), { method: 'DELETE', headers }),
    signInWith: (username: string, password: string, headers: Record<string, string> = {}) =>
      callOperation<SessionBody | ErrorList>('signIn', url(SESSION_PATH), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ username, password }),
      }),
  };
}

const CALLED_LAST = ['deleteRecord', 'deleteListInfo', 'deleteFavorite', 'keepSessionAlive', 'signOut', 'signIn'];

/**
 * Every operationId, in an order one session can call them all in: the reads, then the writes, the deletions
 * and the session's own calls last (signing out ends the session).
 */
export const operationsInSessionOrder = (Object.keys(operationTable) as OperationId[]).sort(
  (a, b) =>
    Number(!operationTable[a].read) - Number(!operationTable[b].read) ||
    CALLED_LAST.indexOf(a) - CALLED_LAST.indexOf(b),
);
