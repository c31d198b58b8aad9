import type { ApiClient } from '../../../client/index';
import { getSessionQuery } from '../../../client/react';

/**
 * Whether the caller is a guest or signed in, and when the session expires. Asking never extends the
 * session; the answer is only as fresh as its serverTime, so it is never stale by age: whoever holds it
 * replaces it with newer answers (sign-in, keep-alive) or invalidates it.
 */
export function sessionQuery(api: ApiClient) {
  return { ...getSessionQuery(api), staleTime: Infinity };
}
