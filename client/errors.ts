import type { components, operations } from '../generated/types';

export type ErrorList = components['schemas']['ErrorList'];
export type ErrorRepresentation = components['schemas']['ErrorRepresentation'];
export type ApexErrorRepresentation = components['schemas']['ApexErrorRepresentation'];
/** The body of a failed record create, update or delete: the errors on the record and per field. */
export type RecordWriteError = components['schemas']['ErrorWithOutputRepresentation'];

/** Every error body the contract defines. */
export type ApiErrorBody = ErrorList | ApexErrorRepresentation | RecordWriteError;

export type OperationId = keyof operations;

type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonContent<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The 4xx and 5xx statuses the contract declares for an operation. */
export type ErrorStatus<Op extends OperationId> =
  Extract<keyof Responses<Op>, number> extends infer Status
    ? Status extends number
      ? `${Status}` extends `4${string}` | `5${string}`
        ? Status
        : never
      : never
    : never;

/** The error body an operation declares for its 4xx and 5xx answers, read from the generated types. */
export type OperationErrorBody<Op extends OperationId> = Extract<
  JsonContent<Responses<Op>[ErrorStatus<Op>]>,
  ApiErrorBody
>;

/** The shape of the errors of an operation's transport: the Apex shape on server methods, the error list elsewhere. */
type TransportErrorBody<Op extends OperationId> = [OperationErrorBody<Op>] extends [ApexErrorRepresentation]
  ? ApexErrorRepresentation
  : ErrorList;

/**
 * Statuses a client may meet that an operation does not declare: from something between client and server
 * (a proxy's 502, a load balancer's 503), or the server's own 429 and 500 on an operation that declares neither.
 * Their body is the transport's shape, made by the client when the answer had none.
 */
type UndeclaredStatus<Op extends OperationId> = Exclude<429 | 500 | 502 | 503 | 504, ErrorStatus<Op>>;

/**
 * How a call of an operation can fail, one member per status: each declared 4xx and 5xx status with the body
 * the contract declares for it; status 0 when no answer arrived (a network failure); an undeclared status with
 * the transport's shape. Narrowing on status narrows the body.
 */
export type OperationFailure<Op extends OperationId> =
  | { [Status in ErrorStatus<Op>]: { status: Status; body: JsonContent<Responses<Op>[Status]> } }[ErrorStatus<Op>]
  | { status: 0 | UndeclaredStatus<Op>; body: TransportErrorBody<Op> };

/** What a call of the operation rejects with: an ApiError whose status and body are one member of its failures. */
export type OperationError<Op extends OperationId> =
  OperationFailure<Op> extends infer Failure
    ? Failure extends { status: infer Status; body: infer Body extends ApiErrorBody }
      ? ApiError<Body> & { readonly operationId: Op; readonly status: Status }
      : never
    : never;

/**
 * A failed call. status is the HTTP status, or 0 when no answer arrived (network failure); the body always
 * has one of the contract's error shapes. OperationError<operationId> types it for one operation.
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

/** Whether a body is the record-write shape: a message, and the errors on the record and per field in output. */
export function isRecordWriteError(body: unknown): body is RecordWriteError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { message, output } = body as { message?: unknown; output?: { errors?: unknown; fieldErrors?: unknown } };
  return (
    typeof message === 'string' &&
    typeof output === 'object' &&
    output !== null &&
    Array.isArray(output.errors) &&
    typeof output.fieldErrors === 'object' &&
    output.fieldErrors !== null
  );
}

/** The human-readable message of any error shape. */
export function errorMessageOf(body: ApiErrorBody): string {
  if (isApexError(body)) return body.errorMessage;
  if (Array.isArray(body)) return body.map((error) => error.message).join('; ');
  return body.message;
}

/** Server methods (the Apex transport) answer errors as ApexErrorRepresentation; every other path as ErrorList. */
export function isApexPath(pathname: string): boolean {
  return /(^|\/)lwr\/apex\//.test(pathname);
}

/** Whether a body has one of the contract's error shapes for the path's transport. */
export function isContractErrorBody(apex: boolean, body: unknown): body is ApiErrorBody {
  return apex ? isApexError(body) : isErrorList(body) || isRecordWriteError(body);
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
