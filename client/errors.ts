import type { components, operations } from '../generated/types';

export type ErrorList = components['schemas']['ErrorList'];
export type ErrorRepresentation = components['schemas']['ErrorRepresentation'];
export type ApexErrorRepresentation = components['schemas']['ApexErrorRepresentation'];

/** Every error body the contract defines. */
export type ApiErrorBody = ErrorList | ApexErrorRepresentation;

export type OperationId = keyof operations;

type JsonContent<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type ErrorStatus<Responses> =
  Extract<keyof Responses, number> extends infer Status
    ? Status extends number
      ? `${Status}` extends `4${string}` | `5${string}`
        ? Status
        : never
      : never
    : never;

/** The error body an operation declares for its 4xx and 5xx answers, read from the generated types. */
export type OperationErrorBody<Op extends OperationId> = Extract<
  JsonContent<operations[Op]['responses'][ErrorStatus<operations[Op]['responses']>]>,
  ApiErrorBody
>;

/**
 * A failed call, thrown by the query functions so that TanStack Query holds a typed body.
 * status is the HTTP status, or 0 when no answer arrived (network failure); the body always has the
 * contract's error shape for the operation's transport.
 */
export class ApiError<Body extends ApiErrorBody = ApiErrorBody> extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    readonly body: Body,
  ) {
    super(`${operationId} failed (${status || 'no response'}): ${errorMessageOf(body)}`);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function isApexError(body: unknown): body is ApexErrorRepresentation {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    typeof (body as { errorMessage?: unknown }).errorMessage === 'string'
  );
}

export function isErrorList(body: unknown): body is ErrorList {
  return (
    Array.isArray(body) &&
    body.length > 0 &&
    body.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as { errorCode?: unknown }).errorCode === 'string' &&
        typeof (item as { message?: unknown }).message === 'string',
    )
  );
}

/** The human-readable message of either error shape. */
export function errorMessageOf(body: ApiErrorBody): string {
  if (isApexError(body)) return body.errorMessage;
  return body.map((error) => error.message).join('; ');
}

/** Server methods (the Apex transport) answer errors as ApexErrorRepresentation; every other path as ErrorList. */
export function isApexPath(pathname: string): boolean {
  return /(^|\/)lwr\/apex\//.test(pathname);
}

const errorCodeByStatus: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'INVALID_SESSION_ID',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'REQUEST_ENTITY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'REQUEST_LIMIT_EXCEEDED',
  503: 'SERVER_UNAVAILABLE',
};

/**
 * Builds a contract-shaped body for an error whose answer did not carry one (a proxy's HTML page,
 * an empty body, a network failure), so that callers handle a single shape per transport.
 */
export function synthesizeErrorBody(apex: boolean, status: number, message: string, detail?: string): ApiErrorBody {
  if (apex) return detail ? { errorMessage: message, debugInfo: detail } : { errorMessage: message };
  const errorCode = status === 0 ? 'NETWORK_ERROR' : (errorCodeByStatus[status] ?? 'UNKNOWN_EXCEPTION');
  return [{ errorCode, message }];
}
