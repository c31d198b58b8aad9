/** The site's pages and where they live. */
import { SIGN_IN_PATH } from './sign-in.ts';

/** The Contact Us page and the sign-in page. Every other address a browser goes to is the page not found. */
export function isPagePath(pathname: string): boolean {
  return pathname === '/' || pathname === SIGN_IN_PATH;
}

/** Where the back office lives: /lightning, and every address under /lightning/ (the platform's own URL forms). */
export const BACK_OFFICE_PATH = '/lightning';

/** Whether a path (no query) is the back office's. */
export function isBackOfficePath(pathname: string): boolean {
  return pathname === BACK_OFFICE_PATH || pathname.startsWith(`${BACK_OFFICE_PATH}/`);
}
