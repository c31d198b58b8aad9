/** Session: sign in and out, the current session, Continue Working and the CSRF token. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import { sessionOf, type AppEnv } from '../http/sessions/principal.ts';
import { WARNING_SECONDS, type ActiveSession, type Sessions } from '../http/sessions/session.ts';
import { PlatformError } from '../platform/core/errors.ts';
import { authenticate } from '../platform/users.ts';

const iso = (ms: number) => new Date(ms).toISOString();

function representation(c: Context, sessions: Sessions) {
  const principal = c.var.principal;
  const session: ActiveSession | undefined = principal.isGuest ? undefined : sessionOf(c);
  const serverTime = iso(sessions.clock.now());
  if (!session) {
    return {
      isGuest: true,
      userId: principal.userId,
      userName: null,
      displayName: null,
      profileName: principal.profile.name,
      idleExpiresAt: null,
      warnAt: null,
      absoluteExpiresAt: null,
      idleTimeoutSeconds: null,
      warningSeconds: WARNING_SECONDS,
      serverTime,
    };
  }
  return {
    isGuest: false,
    userId: session.userId,
    userName: session.username,
    displayName: session.displayName,
    profileName: principal.profile.name,
    idleExpiresAt: iso(session.idleExpiresAt),
    warnAt: iso(session.idleExpiresAt - WARNING_SECONDS * 1000),
    absoluteExpiresAt: iso(session.absoluteExpiresAt),
    idleTimeoutSeconds: sessions.settings.idleTimeoutSeconds,
    warningSeconds: WARNING_SECONDS,
    serverTime,
  };
}

/** A session the session gate found; operation() has already answered 401 to callers without one. */
function activeSession(c: Context): ActiveSession {
  const session = sessionOf(c);
  if (!session) throw new PlatformError(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
  return session;
}

export function sessionRoutes(db: Database, sessions: Sessions) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getSession, (c) => c.json(representation(c, sessions), 200));

  implement(app, routes.signIn, async (c) => {
    const { username, password } = c.req.valid('json');
    const user = await authenticate(db, username, password);
    if (!user) return c.json([{ errorCode: 'INVALID_LOGIN', message: 'Invalid username or password.' }], 401);
    await sessions.start(c, user);
    // The caller of the rest of this request is the user now signed in.
    c.set('principal', user.principal);
    return c.json(representation(c, sessions), 200);
  });

  implement(app, routes.signOut, async (c) => {
    await sessions.end(c);
    return c.body(null, 204);
  });

  implement(app, routes.keepSessionAlive, async (c) => {
    await sessions.keepAlive(activeSession(c));
    return c.json(representation(c, sessions), 200);
  });

  implement(app, routes.getCsrfToken, async (c) => {
    const csrfToken = await sessions.csrfToken(activeSession(c));
    return c.json({ csrfToken }, 200);
  });

  return app;
}
