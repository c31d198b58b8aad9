/**
 * Any API call that answers 401 INVALID_SESSION_ID means the session is gone (expired, signed out in
 * another browser, the server restarted): the page shows the timeout toast and becomes a guest's. The
 * middleware sees every answer of the page's API client and tells the session provider.
 */
import type { Middleware } from 'openapi-fetch';
import { isErrorList } from '../../../client/index';

const INVALID_SESSION_EVENT = 'storefront:invalid-session';

export const invalidSessionMiddleware: Middleware = {
  async onResponse({ response }) {
    if (response.status !== 401 || typeof window === 'undefined') return undefined;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    if (isErrorList(body) && body.some((error) => error.errorCode === 'INVALID_SESSION_ID')) {
      window.dispatchEvent(new Event(INVALID_SESSION_EVENT));
    }
    return undefined;
  },
};

export function onInvalidSession(listener: () => void): () => void {
  window.addEventListener(INVALID_SESSION_EVENT, listener);
  return () => window.removeEventListener(INVALID_SESSION_EVENT, listener);
}
