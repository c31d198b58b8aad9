/**
 * The back office is for signed-in users only. A call answered 401 means the session ended while the page was
 * open (it expired, or the user signed out elsewhere): the page goes to the sign-in page, which returns here.
 */
import type { Middleware } from 'openapi-fetch';
import { signInHref } from '../../../common/sign-in';

export const signInOnInvalidSession: Middleware = {
  onResponse({ response }) {
    if (response.status === 401) window.location.assign(signInHref(window.location.pathname, window.location.search));
    return undefined;
  },
};
