/**
 * The caller of a request. The session gate (Sessions.gate, server/http/sessions/session.ts) finds it from the
 * session cookie before routing and hands it to the app in the env; a request it found no caller for (a read
 * without a cookie) is a guest's.
 */
import type { Context } from 'hono';
import { GUEST, type Principal } from '../../platform/core/principal.ts';
import type { NodeEnv } from '../connections/request-header.ts';

/** A signed-in session, as the request found it (after this request's activity was counted). */
export interface ActiveSession {
  idHash: string;
  userId: string;
  username: string;
  displayName: string;
  createdAt: number;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
}

/** Who sent a request, as the session gate found out, and what the answer has done with the session cookie. */
export interface Caller {
  principal: Principal;
  /** The session the cookie named, while it lasts. */
  session: ActiveSession | undefined;
  /** Set once a handler wrote the session cookie, so that the gate does not clear it afterwards. */
  cookieWritten: boolean;
}

/** The env the app is given past the session gate: the Node request and response, and the caller when it was looked at. */
export type CallerEnv = (NonNullable<NodeEnv> & { caller?: Caller }) | undefined;

/**
 * The app's Hono env: the Node request and response and the caller in the env (what the gate hands on), and the
 * caller's principal as a variable, which implement() sets for every operation's handler (c.var.principal).
 */
export interface AppEnv {
  Bindings: NonNullable<CallerEnv>;
  Variables: { principal: Principal };
}

export function callerOf(c: Context): Caller | undefined {
  return (c.env as CallerEnv)?.caller;
}

export function principalOf(c: Context): Principal {
  return callerOf(c)?.principal ?? GUEST;
}

/** The request's session, while it lasts. */
export function sessionOf(c: Context): ActiveSession | undefined {
  return callerOf(c)?.session;
}
