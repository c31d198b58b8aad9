/** The inquiry form's fixed names, shared by the server method (server/storefront/inquiry.ts) and the form. */

/** The longest value of each field, as Case's fields take them (in characters). */
export const INQUIRY_LIMITS = { name: 80, email: 80, phone: 40, company: 80, message: 4_000 } as const;

/** A form sent sooner than this after it was made is refused: people take longer to fill it in. */
export const MIN_FILL_MS = 3_000;
