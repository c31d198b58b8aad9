/**
 * What every request passes before routing, after the replay stage (which answers a few GETs from memory
 * with what this would add): the security headers, and the caller from the session cookie with the CSRF
 * defences (Sessions.gate). A read that carries no cookie, which most requests are, goes on as a guest's with
 * nothing else looked at. Done here rather than as app-wide Hono middleware, which would make every route
 * pass Hono's middleware chain: a route without middleware of its own is then called directly by the router.
 */
import type { ExecutionContext } from 'hono';
import type { AppOptions } from '../../app-options.ts';
import { securityHeaders } from '../answers/security-headers.ts';
import type { Sessions } from '../sessions/session.ts';

/** The app's own fetch: a Request and the env the Node adapter gives (undefined in process). */
export type Dispatch = (
  request: Request,
  env?: unknown,
  executionCtx?: ExecutionContext,
) => Response | Promise<Response>;

export function gateOf(options: AppOptions, sessions: Sessions, dispatch: Dispatch): Dispatch {
  const secure = securityHeaders(options);
  return (request, env, executionCtx) => {
    const afterwards = secure(request, env);
    const answer = sessions.gate(request, env, (callerEnv) => dispatch(request, callerEnv, executionCtx));
    if (!afterwards) return answer;
    return answer instanceof Promise ? answer.then(afterwards) : afterwards(answer);
  };
}
