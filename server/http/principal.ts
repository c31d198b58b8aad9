/**
 * The caller of a request. The session middleware (server/http/session.ts) sets it from the session
 * cookie; a request it has not set it on is a guest's.
 */
import type { Context } from 'hono';
import { GUEST, type Principal } from '../platform/principal.ts';

declare module 'hono' {
  interface ContextVariableMap {
    principal: Principal;
  }
}

export function principalOf(c: Context): Principal {
  return c.get('principal') ?? GUEST;
}
