/** Where the sign-in page lives, and where it sends the user back to afterwards. */
export const SIGN_IN_PATH = '/login';

/** The query parameter naming the page to return to (the platform's name for it). */
export const RETURN_PARAM = 'startURL';

/**
 * A path on this site to go to after signing in; '/' for anything else, so that the sign-in page cannot
 * be used to send someone to another site ("//host", "/\host", "https://…") or to a script URL.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  try {
    const resolved = new URL(value, 'http://site.invalid');
    if (resolved.origin !== 'http://site.invalid' || resolved.pathname === SIGN_IN_PATH) return '/';
    return resolved.pathname + resolved.search + resolved.hash;
  } catch {
    return '/';
  }
}

/** The sign-in link from a page of the site, coming back to it. */
export function signInHref(pathname: string, search: string): string {
  const here = pathname + search;
  if (here === '/' || pathname === SIGN_IN_PATH) return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?${RETURN_PARAM}=${encodeURIComponent(here)}`;
}
