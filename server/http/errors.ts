/**
 * Every error leaves the server in the platform's shape: an array of {errorCode, message} for the record
 * API, {errorMessage, debugInfo?} on the Apex transport; a browser going to an unknown page gets a short
 * document. No library default body reaches a client.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from '@hono/zod-openapi';
import { NOT_FOUND_MESSAGE, PlatformError } from '../platform/core/errors.ts';
import { RecordWriteError } from '../platform/records/write-rules.ts';
import { ImportError } from '../platform/import/errors.ts';
import { ApexError } from '../storefront/apex-error.ts';
import type { NodeEnv } from './connections/request-header.ts';

const APEX_PREFIX = '/lwr/apex/';

/** The error body of a path: {errorMessage, debugInfo?} on the Apex transport, [{errorCode, message}] on the record API. */
function errorBody(path: string, errorCode: string, message: string, debugInfo?: string) {
  if (path.startsWith(APEX_PREFIX)) return debugInfo ? { errorMessage: message, debugInfo } : { errorMessage: message };
  return [{ errorCode, message }];
}

/** errorResponse before routing, where there is no Context yet (the session gate's refusals): by the request's path. */
export function errorAnswer(path: string, status: ContentfulStatusCode, errorCode: string, message: string): Response {
  return new Response(JSON.stringify(errorBody(path, errorCode, message)), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Answers with the error shape of the called path: Apex transport or record API. */
export function errorResponse(
  c: Context,
  status: ContentfulStatusCode,
  errorCode: string,
  message: string,
  debugInfo?: string,
) {
  return c.json(errorBody(c.req.path, errorCode, message, debugInfo), status);
}

/** The markup of plainPage: a heading and a paragraph of trusted markup. */
function plainDocument(title: string, paragraphHtml: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${paragraphHtml}</p></main></body></html>\n`;
}

/**
 * A short document for a visitor's browser (an unknown page, too many requests): a heading and a paragraph
 * of trusted markup. It has no style, script or link, so the API answers' policy that allows nothing fits it.
 */
export function plainPage(c: Context, status: ContentfulStatusCode, title: string, paragraphHtml: string): Response {
  return c.html(plainDocument(title, paragraphHtml), status);
}

/** Where the API answers: an unknown path below these is an API error, whoever asks. */
const API_PREFIXES = ['/services/', '/lwr/', '/sfsites/', '/cdn-cgi/'];

/** A browser going to a page (not fetching data): it asks for HTML first. */
export function isPageVisit(c: Context): boolean {
  return isPageRequest(c.req.method, c.req.path, (name) => c.req.header(name));
}

function isPageRequest(method: string, path: string, header: (name: string) => string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (API_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  return header('Sec-Fetch-Mode') === 'navigate' || /^\s*text\/html\b/i.test(header('Accept') ?? '');
}

/**
 * An unknown path: the record API's shape, the Apex transport's paths included. A visitor's browser that
 * goes to an unknown page gets the site's page not found (server/app.ts), or, where the site has no pages (the
 * API alone), a short document, with the way to the Contact Us page.
 */
export function notFoundHandler(c: Context) {
  if (isPageVisit(c))
    return plainPage(
      c,
      404,
      'Page not found',
      'There is no page at this address. <a href="/">Go to the Contact Us page</a>.',
    );
  return c.json([{ errorCode: 'NOT_FOUND', message: NOT_FOUND_MESSAGE }], 404);
}

export function errorHandler(error: Error, c: Context) {
  // A record write that failed on its fields answers with the record-error output.
  if (error instanceof RecordWriteError) return c.json(error.body, 400);
  if (error instanceof PlatformError) return errorResponse(c, error.status, error.errorCode, error.message);
  // The CSV import's refusal of a file or of its options (server/routes/record-import.ts).
  if (error instanceof ImportError) return errorResponse(c, error.status, error.errorCode, error.message);
  if (error instanceof ApexError) {
    if (error.fieldErrors && c.req.path.startsWith(APEX_PREFIX))
      return c.json({ errorMessage: error.message, fieldErrors: error.fieldErrors }, error.status);
    return errorResponse(c, error.status, 'APEX_ERROR', error.message, error.debugInfo);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 415) {
      const type = c.req.header('content-type') || 'no Content-Type';
      return errorResponse(c, 415, 'UNSUPPORTED_MEDIA_TYPE', `The request body must be application/json, not ${type}`);
    }
    const code = status === 400 ? 'JSON_PARSER_ERROR' : status === 413 ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST';
    return errorResponse(c, status, code, error.message || 'The request is invalid');
  }
  // The client went away before its request arrived whole (it closed the connection, or was cut off for sending
  // too slowly): its body could not be read, but nothing went wrong here, and there is nobody left to answer.
  const incoming = (c.env as NodeEnv)?.incoming;
  if (incoming?.destroyed && !incoming.complete)
    return errorResponse(c, 400, 'INVALID_REQUEST', 'The request was not received in full');
  // Anything else is a defect: log it with an id, and tell the client only the id.
  const errorId = randomUUID().slice(0, 8);
  console.error(`[${errorId}] ${c.req.method} ${c.req.path}:`, error);
  return errorResponse(
    c,
    500,
    'UNKNOWN_EXCEPTION',
    `An unexpected error occurred. Please include this ErrorId if you contact support: ${errorId}`,
  );
}

/** What a request validation failed on, as the app's hooks are given it. */
export type ValidationResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** Turns a failed request validation into the platform's 400 for the part of the request that failed. */
export function validationHook(result: ValidationResult, c: Context) {
  if (result.success) return;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  const raw = (where: string) =>
    where === 'param' ? c.req.param(name) : where === 'query' ? c.req.query(name) : c.req.header(name);
  switch (result.target) {
    case 'param':
    case 'query':
    case 'header': {
      const value = raw(result.target);
      const kind = result.target === 'query' ? 'query parameter' : result.target === 'header' ? 'header' : 'parameter';
      const code =
        result.target === 'param' && /Ids?$/.test(name) ? 'INVALID_ID_FIELD' : 'ILLEGAL_QUERY_PARAMETER_VALUE';
      // A required one not sent: say so, rather than show an empty value.
      if (value === undefined) return errorResponse(c, 400, code, `Required ${kind} '${name}' is missing`);
      // A parameter that holds a JSON document (methodParams): say what in the document is wrong.
      if (issue && (issue.path.length > 1 || issue.code === 'custom')) {
        const where = issue.path.length > 1 ? ` at ${issue.path.slice(1).join('.')}` : '';
        return errorResponse(c, 400, code, `Illegal value for ${kind} '${name}'${where}: ${issue.message}`);
      }
      return errorResponse(c, 400, code, `Illegal value for ${kind} '${name}': ${value}`);
    }
    default: {
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      return errorResponse(c, 400, 'INVALID_INPUT', `Invalid request body${where}: ${issue?.message ?? 'invalid'}`);
    }
  }
}

/**
 * The answer to a request Node's HTTP parser refuses before the app sees it, as raw HTTP: an address or
 * headers over the size limit (Node would answer 431 with no body, and a browser would show its own error
 * page), a request not received in time (408), or a request that is not HTTP (400, as Node answers it).
 * What is known of the request is its first bytes, or its head when only its body was late: a visitor going
 * to a page gets a short document with the way back to the Contact Us page, an API path the API's error
 * shape, as for any other error.
 */
export function clientErrorResponse(
  error: { code?: string; rawPacket?: Buffer; bytesParsed?: number },
  options: ClientErrorOptions,
  request?: RequestHead,
): string {
  const { limitBytes, headers: securityHeaders } = options;
  const rawResponse = (status: number, headers: Record<string, string>, body: string) =>
    httpResponse(status, { ...headers, ...securityHeaders }, body);
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return timeoutResponse(request, options);
  const raw = error.rawPacket?.toString('latin1') ?? '';
  const lineEnd = raw.indexOf('\r\n');
  const [method = '', target = ''] = (lineEnd < 0 ? raw : raw.slice(0, lineEnd)).split(' ');
  const known = /^[A-Z]+$/.test(method) && target.startsWith('/');
  if (error.code !== 'HPE_HEADER_OVERFLOW' || !known) {
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    return rawResponse(status, {}, '');
  }
  // The address itself is too long when the request line does not end within the limit (or where the
  // parser stopped); else the headers are.
  const addressTooLong =
    lineEnd < 0 || lineEnd >= limitBytes || (error.bytesParsed !== undefined && error.bytesParsed <= lineEnd);
  const status = addressTooLong ? 414 : 431;
  const headers = new Map<string, string>();
  if (!addressTooLong) {
    for (const line of raw
      .slice(lineEnd + 2)
      .split('\r\n')
      .slice(0, -1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
  }
  const kilobytes = Math.round(limitBytes / 1024);
  // Without its headers a request to a path that is not the API's is taken for a browser's.
  const page =
    isPageRequest(method, target, (name) => headers.get(name.toLowerCase())) ||
    (addressTooLong &&
      (method === 'GET' || method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => target.startsWith(prefix)));
  if (page) {
    const [title, paragraph] = addressTooLong
      ? [
          'Address too long',
          `The address of this page is longer than the site accepts (${kilobytes} KB). <a href="/">Go to the Contact Us page</a>.`,
        ]
      : [
          'Request too large',
          `Your browser sent more than the site accepts (${kilobytes} KB of address and headers); clearing this site's cookies may help. <a href="/">Go to the Contact Us page</a>.`,
        ];
    return rawResponse(
      status,
      { 'Content-Type': 'text/html; charset=UTF-8', 'Cache-Control': 'no-store' },
      plainDocument(title, paragraph),
    );
  }
  const message = addressTooLong
    ? `The request's address is longer than the server accepts (${kilobytes} KB)`
    : `The request's address and headers are larger than the server accepts (${kilobytes} KB)`;
  const body = target.startsWith(APEX_PREFIX)
    ? { errorMessage: message }
    : [{ errorCode: addressTooLong ? 'URI_TOO_LONG' : 'REQUEST_HEADER_FIELDS_TOO_LARGE', message }];
  return rawResponse(
    status,
    { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' },
    JSON.stringify(body),
  );
}

/**
 * The answer to a request not received within the server's time. Before its head is whole nothing of it is
 * known (a client trickling its headers, or a connection opened and never used): Node's 408, with no body.
 * A request whose body came too slowly is answered as its path and headers ask, as a request too large is.
 */
function timeoutResponse(
  request: RequestHead | undefined,
  { requestTimeoutMs, headers: securityHeaders }: ClientErrorOptions,
): string {
  const rawResponse = (headers: Record<string, string>, body: string) =>
    httpResponse(408, { ...headers, 'Cache-Control': 'no-store', ...securityHeaders }, body);
  if (!request?.method || !request.url) return httpResponse(408, securityHeaders, '');
  const path = request.url.split('?', 1)[0];
  const seconds = Math.round(requestTimeoutMs / 1000);
  const within = `within ${seconds} second${seconds === 1 ? '' : 's'}`;
  const header = (name: string) => {
    const value = request.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  if (isPageRequest(request.method, path, header)) {
    const paragraph = `Your browser did not send the whole request ${within}. <a href="/">Go to the Contact Us page</a>.`;
    return rawResponse({ 'Content-Type': 'text/html; charset=UTF-8' }, plainDocument('Request timed out', paragraph));
  }
  const message = `The request was not received in full ${within}`;
  const body = path.startsWith(APEX_PREFIX) ? { errorMessage: message } : [{ errorCode: 'REQUEST_TIMEOUT', message }];
  return rawResponse({ 'Content-Type': 'application/json; charset=UTF-8' }, JSON.stringify(body));
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** What is known of a request whose head was read whole: the request Node handed the app. */
interface RequestHead {
  method?: string;
  url?: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

interface ClientErrorOptions {
  /** The server's maxHeaderSize: the most the request line and headers together may take. */
  limitBytes: number;
  /** The server's requestTimeout: how long the whole request may take to arrive (ms). */
  requestTimeoutMs: number;
  /** The security headers every answer carries (security-headers.ts: the API's, which fit these documents too). */
  headers: Readonly<Record<string, string>>;
}

function httpResponse(status: number, headers: Record<string, string>, body: string): string {
  const all = { ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  return `HTTP/1.1 ${status} ${REASONS[status]}\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
}

/** The minimum of a socket answerClientError writes to (net.Socket). */
interface ClientSocket {
  writable: boolean;
  /** Node's: the answer being written on the connection, if any (node:_http_server's own check), and its request. */
  _httpMessage?: { _headerSent?: boolean; req?: RequestHead } | null;
  end(data: string): unknown;
  destroy(): unknown;
  on(event: 'error', listener: () => void): unknown;
}

/** Node's own limit on the request line and headers (its default), stated so that the answers above it can say it. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * The HTTP server's clientError listener: answers as clientErrorResponse says, once per connection, then
 * closes it (the client may still be sending the rest of its request: it is let go a moment later).
 */
export function clientErrorListener(options: ClientErrorOptions) {
  return (error: Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number }, socket: ClientSocket) => {
    socket.on('error', () => {});
    // As Node decides: an answer only where none is under way on the connection. A kept-alive connection has
    // written earlier answers (bytesWritten > 0), and its next request still gets one.
    const inFlight = socket._httpMessage;
    if (!socket.writable || (inFlight && inFlight._headerSent)) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error, options, inFlight?.req));
    setTimeout(() => socket.destroy(), 2000).unref();
  };
}
