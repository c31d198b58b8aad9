/** Names the platform fixes and both the server and its clients use: defined here once. */

/** The base path of the record API (UI API), at the API version every platform path of this product has. */
export const UI_API_PATH = '/services/data/v65.0/ui-api';

/** The master record type id (18 characters, beginning 012): a record of an object without record types has it. */
export const MASTER_RECORD_TYPE_ID = '012000000000000AAA';

/** The header that carries the session's CSRF token on a state-changing call. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** The session cookie: `__Host-` prefixed (and Secure) over HTTPS, where browsers enforce what the prefix promises. */
export const SESSION_COOKIE = { https: '__Host-sid', http: 'sid' } as const;
