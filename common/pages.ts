/** The site's pages and where they live. */
import { SIGN_IN_PATH } from './sign-in.ts';

/** The Contact Us page and the sign-in page. Every other address a browser goes to is the page not found. */
export function isPagePath(pathname: string): boolean {
  return pathname === '/' || pathname === SIGN_IN_PATH;
}
