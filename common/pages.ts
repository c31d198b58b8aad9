/** The site's pages and where they live. */
import { SIGN_IN_PATH } from './sign-in.ts';

/** Where the representatives' own pages live: /reps/{recordId}. */
export const REPRESENTATIVE_PREFIX = '/reps/';

const REPRESENTATIVE_PAGE = /^\/reps\/([a-zA-Z0-9]{15}|[a-zA-Z0-9]{18})$/;

/** The Id a representative's page names (/reps/{recordId}, 15 or 18 letters and digits), or null. */
export function representativeIdOf(pathname: string): string | null {
  return REPRESENTATIVE_PAGE.exec(pathname)?.[1] ?? null;
}

/** The address of a representative's page. */
export const representativePath = (recordId: string) => `${REPRESENTATIVE_PREFIX}${recordId}`;

/**
 * The Contact Us page, the sign-in page and a representative's page (whose Id may still name no representative:
 * the page then answers 404). Every other address a browser goes to is the page not found.
 */
export function isPagePath(pathname: string): boolean {
  return pathname === '/' || pathname === SIGN_IN_PATH || representativeIdOf(pathname) !== null;
}

/** Where the back office lives: /lightning, and every address under /lightning/ (the platform's own URL forms). */
export const BACK_OFFICE_PATH = '/lightning';

/** Whether a path (no query) is the back office's. */
export function isBackOfficePath(pathname: string): boolean {
  return pathname === BACK_OFFICE_PATH || pathname.startsWith(`${BACK_OFFICE_PATH}/`);
}
