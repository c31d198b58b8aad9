/**
 * One call of one operation, typed from the contract: what generated/client.ts's calls are made of.
 *
 * A call sends the operation's parameters and body through the API client (openapi-fetch, with the error-shape
 * and CSRF middleware of createApiClient), and resolves to the 2xx body or rejects with an ApiError whose status
 * and body are the contract's (OperationError). A read (a GET, or a POST the contract marks x-read) answered 429
 * or 503 is sent again after the Retry-After the answer gives: at most twice, never waiting over 10 s in all; a
 * write is never sent twice.
 */
import type { Client } from 'openapi-fetch';
import type { operations, paths } from '../generated/types';
import type { ContractOperation } from '../generated/operations';
import {
  ApiError,
  isApexPath,
  isContractErrorBody,
  synthesizeErrorBody,
  type OperationError,
  type OperationId,
} from './errors';

export type ApiClient = Client<paths>;

type Operation<Op extends OperationId> = operations[Op];
type Present<T> = [NonNullable<T>] extends [never] ? false : true;

/** The operation's parameters by where they go (path, query, header), as the contract declares them. */
type ParameterInput<Parameters> = {
  [
    Location in keyof Parameters as Location extends 'path' | 'query' | 'header'
      ? Present<Parameters[Location]> extends true
        ? Location
        : never
      : never
  ]: Parameters[Location];
};

/** The operation's JSON body, required when the contract requires it. */
type BodyInput<Op> = Op extends { requestBody?: infer RequestBody }
  ? Present<RequestBody> extends true
    ? NonNullable<RequestBody> extends { content: { 'application/json': infer Body } }
      ? undefined extends RequestBody
        ? { body?: Body }
        : { body: Body }
      : unknown
    : unknown
  : unknown;

/** What a call of the operation takes: { path?, query?, header?, body? }, each typed and required as declared. */
export type Input<Op extends OperationId> = ParameterInput<Operation<Op>['parameters']> & BodyInput<Operation<Op>>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
type Responses<Op extends OperationId> = Operation<Op>['responses'];
type SuccessResponse<Op extends OperationId> = Responses<Op>[Extract<keyof Responses<Op>, SuccessStatus>];

/** What a call of the operation resolves to: its 2xx JSON body, a Blob for media, undefined for 204. */
export type Output<Op extends OperationId> =
  SuccessResponse<Op> extends { content: { 'application/json': infer Body } }
    ? Body
    : SuccessResponse<Op> extends { content: Record<string, unknown> }
      ? Blob
      : undefined;

export interface CallOptions {
  /** Aborts the call, and any wait before a retry. */
  signal?: AbortSignal;
  /** Headers of this call only. */
  headers?: Record<string, string>;
}

/** How often a read answered 429 or 503 is sent again, and how long the waits may add up to. */
export const RETRY = { times: 2, maxWaitMs: 10_000, defaultDelayMs: 1_000 } as const;

/** The wait a 429 or 503 asks for (Retry-After in seconds or as a date), or the default for the attempt. */
export function retryDelay(retryAfter: string | null, attempt: number, now = Date.now()): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return RETRY.defaultDelayMs * 2 ** attempt;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

type AnyRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** What the API client is asked for by a call: method, path and init, in openapi-fetch's terms. */
function initOf(input: object, options: CallOptions | undefined, parseAs: 'json' | 'blob'): Record<string, unknown> {
  const { path, query, header, body } = input as { path?: object; query?: object; header?: object; body?: unknown };
  return {
    params: { path, query, header },
    ...(body === undefined ? {} : { body }),
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(options?.headers ? { headers: options.headers } : {}),
    parseAs,
  };
}

/**
 * Calls one operation: the generated calls are this with the operation's row of the contract's table.
 * parseAs is 'blob' for operations that answer media.
 */
export async function send<Op extends OperationId>(
  api: ApiClient,
  operationId: Op,
  operation: Pick<ContractOperation, 'method' | 'path' | 'read'>,
  input: Input<Op>,
  options?: CallOptions,
  parseAs: 'json' | 'blob' = 'json',
): Promise<Output<Op>> {
  const apex = isApexPath(operation.path);
  const init = initOf(input, options, parseAs);
  const request = api.request as unknown as AnyRequest;
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    let result: Awaited<ReturnType<AnyRequest>>;
    try {
      result = await request(operation.method.toUpperCase(), operation.path, init);
    } catch (cause) {
      if (options?.signal?.aborted || (cause as { name?: unknown } | null)?.name === 'AbortError') throw cause;
      const detail = cause instanceof Error ? cause.message : String(cause);
      const body = synthesizeErrorBody(apex, 0, 'The request could not reach the server', detail);
      throw new ApiError(operationId, 0, body) as OperationError<Op>;
    }
    const { data, error, response } = result;
    if (response.ok) return data as Output<Op>;
    if (operation.read && (response.status === 429 || response.status === 503) && attempt < RETRY.times) {
      const delay = retryDelay(response.headers.get('Retry-After'), attempt);
      if (waited + delay <= RETRY.maxWaitMs) {
        waited += delay;
        await wait(delay, options?.signal);
        continue;
      }
    }
    // The error-shape middleware shapes every 4xx/5xx body; a 304 (only when the caller sent If-None-Match) has none.
    const body = isContractErrorBody(apex, error)
      ? error
      : synthesizeErrorBody(apex, response.status, response.statusText || `Status ${response.status}`);
    throw new ApiError(operationId, response.status, body) as OperationError<Op>;
  }
}
