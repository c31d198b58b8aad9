/**
 * Domain errors of the record API, each with the platform's status and errorCode. Domain code throws
 * them; the HTTP layer turns them into the contract's error bodies.
 */
export class PlatformError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 412 | 500 | 501,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export const NOT_FOUND_MESSAGE = 'The requested resource does not exist';
export const NO_ACCESS_MESSAGE =
  "You don't have access to this record. Ask your administrator for help or to request access.";

export const notFound = () => new PlatformError(404, 'NOT_FOUND', NOT_FOUND_MESSAGE);
/** An object the caller may not see answers exactly like one that does not exist. */
export const noAccess = () => new PlatformError(404, 'INSUFFICIENT_ACCESS', NO_ACCESS_MESSAGE);
export const invalidId = (parameter: string, value: string) =>
  new PlatformError(400, 'INVALID_ID_FIELD', `Illegal value for parameter '${parameter}': ${value}`);
