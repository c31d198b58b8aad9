/** Names the platform fixes and both the server and its clients use: defined here once. */

/** The platform API version in every platform path of this product: that of platform release 258. */
export const API_VERSION = 'v65.0';

/** The base path of the platform's REST resources at that version. */
const DATA_PATH = `/services/data/${API_VERSION}`;

/** The base path of the record API (UI API). */
export const UI_API_PATH = `${DATA_PATH}/ui-api`;

/** The base path of the Connect resources (content delivery, communities). */
export const CONNECT_PATH = `${DATA_PATH}/connect`;

/** The master record type id (18 characters, beginning 012): a record of an object without record types has it. */
export const MASTER_RECORD_TYPE_ID = '012000000000000AAA';

/** The header that carries the session's CSRF token on a state-changing call. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** The session cookie: `__Host-` prefixed (and Secure) over HTTPS, where browsers enforce what the prefix promises. */
export const SESSION_COOKIE = { https: '__Host-sid', http: 'sid' } as const;
