/**
 * An error of a server method, answered in the Apex transport's shape {errorMessage, debugInfo?, fieldErrors?}:
 * fieldErrors says, for arguments that are wrong, by argument name, what is wrong with each.
 */
export class ApexError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 500,
    message: string,
    readonly debugInfo?: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
  }
}
