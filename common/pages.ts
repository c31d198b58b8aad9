/** The site's pages and where they live. */
import { SIGN_IN_PATH } from './sign-in.ts';

/** The Contact Us page, the sign-in page and the inquiry forms. Every other address a browser goes to is the page not found. */
export function isPagePath(pathname: string): boolean {
  return pathname === '/' || pathname === SIGN_IN_PATH || inquiryRecordIdOf(pathname) !== undefined;
}

/** The inquiry form of a representative: /reps/{recordId}/inquiry. */
export const INQUIRY_ROUTE = '/reps/:recordId/inquiry';

export function inquiryPathOf(recordId: string): string {
  return `/reps/${encodeURIComponent(recordId)}/inquiry`;
}

/** The representative's Id in an inquiry form's path (15 or 18 letters and digits), or undefined for another path. */
export function inquiryRecordIdOf(pathname: string): string | undefined {
  return /^\/reps\/([a-zA-Z0-9]{15}(?:[a-zA-Z0-9]{3})?)\/inquiry$/.exec(pathname)?.[1];
}

/** Where the back office lives: /lightning, and every address under /lightning/ (the platform's own URL forms). */
export const BACK_OFFICE_PATH = '/lightning';

/** Whether a path (no query) is the back office's. */
export function isBackOfficePath(pathname: string): boolean {
  return pathname === BACK_OFFICE_PATH || pathname.startsWith(`${BACK_OFFICE_PATH}/`);
}
