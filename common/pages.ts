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
 * The Contact Us page, the sign-in page, a representative's page and its inquiry form (whose Id may still name
 * no representative: the page then answers 404). Every other address a browser goes to is the page not found.
 */
export function isPagePath(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === SIGN_IN_PATH ||
    representativeIdOf(pathname) !== null ||
    inquiryRecordIdOf(pathname) !== undefined
  );
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

/** The CSV import of an object's records (server/routes/record-import.ts), beside the object's list view. */
export const RECORD_IMPORT_ROUTE = `${BACK_OFFICE_PATH}/o/:objectApiName/import`;

/** The import's steps: the dry run and the commit (POST, multipart), the user's saved mapping (GET and PUT). */
export type RecordImportStep = 'dry-run' | 'commit' | 'mapping';

/** The address of one step of an object's import. */
export function recordImportPath(objectApiName: string, step: RecordImportStep): string {
  return `${BACK_OFFICE_PATH}/o/${encodeURIComponent(objectApiName)}/import/${step}`;
}
