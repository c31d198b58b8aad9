/** An error of a server method, answered in the Apex transport's shape {errorMessage, debugInfo?}. */
export class ApexError extends Error {
  constructor(
    readonly status: 400 | 404 | 500,
    message: string,
    readonly debugInfo?: string,
  ) {
    super(message);
  }
}
