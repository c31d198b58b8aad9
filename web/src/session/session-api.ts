/**
 * The session operations as the page makes them. The API client sends the session's CSRF token on
 * state-changing calls itself (client/index.ts csrfMiddleware), fetching it when first needed.
 */
import { getSession, isApiError, keepSessionAlive, signIn, signOut, type ApiClient } from '../../../client/index';
import type { SessionRepresentation, SignInInput } from '../../../client/queries';

export function hasErrorCode(error: unknown, status: number, errorCode: string): boolean {
  return (
    isApiError(error) &&
    error.status === status &&
    Array.isArray(error.body) &&
    error.body.some((item) => item.errorCode === errorCode)
  );
}

export const isInvalidSession = (error: unknown) => hasErrorCode(error, 401, 'INVALID_SESSION_ID');

export interface SessionActions {
  /** A fresh reading (never from the cache): the validator's clock depends on when it arrived. */
  getSession(): Promise<SessionRepresentation>;
  keepSessionAlive(): Promise<SessionRepresentation>;
  /**
   * ended: the server has answered as to a guest already, which ended the session there and cleared its
   * cookie; there is nothing left to sign out of (and no CSRF token to be had for the call).
   */
  signOut(options?: { ended?: boolean }): Promise<void>;
  signIn(input: SignInInput): Promise<SessionRepresentation>;
}

export function sessionActions(api: ApiClient): SessionActions {
  return {
    getSession: () => getSession(api),
    keepSessionAlive: () => keepSessionAlive(api),
    async signOut(options) {
      if (options?.ended) return;
      try {
        await signOut(api);
      } catch (error) {
        // The session is gone already: signed out is what was wanted.
        if (!isInvalidSession(error)) throw error;
      }
    },
    signIn: (input) => signIn(api, { body: input }),
  };
}
