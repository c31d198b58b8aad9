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
import { NOT_FOUND_MESSAGE, PlatformError } from '../platform/errors.ts';
import { RecordWriteError } from '../platform/records/write-rules.ts';
import { ApexError } from '../storefront/apex-error.ts';

const APEX_PREFIX = '/lwr/apex/';

function isApex(c: Context) {
  return c.req.path.startsWith(APEX_PREFIX);
}

/** Answers with the error shape of the called path: Apex transport or record API. */
export function errorResponse(c: Context, status: ContentfulStatusCode, errorCode: string, message: string, debugInfo?: string) {
  if (isApex(c)) return c.json(debugInfo ? { errorMessage: message, debugInfo } : { errorMessage: message }, status);
  return c.json([{ errorCode, message }], status);
}

/**
 * A short document for a visitor's browser (an unknown page, too many requests): a heading and a paragraph
 * of trusted markup. It has no style, script or link, so the API answers' policy that allows nothing fits it.
 */
export function plainPage(c: Context, status: ContentfulStatusCode, title: string, paragraphHtml: string): Response {
  return c.html(
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1><p>${paragraphHtml}</p></main></body></html>\n`,
    status,
  );
}

/** Where the API answers: an unknown path below these is an API error, whoever asks. */
const API_PREFIXES = ['/services/', '/lwr/', '/sfsites/', '/cdn-cgi/'];

/** A browser going to a page (not fetching data): it asks for HTML first. */
function isPageVisit(c: Context): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  if (API_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return false;
  return c.req.header('Sec-Fetch-Mode') === 'navigate' || /^\s*text\/html\b/i.test(c.req.header('Accept') ?? '');
}

/**
 * An unknown path: the record API's shape, the Apex transport's paths included. A visitor's browser that
 * goes to an unknown page gets a short document instead, with the way to the Contact Us page.
 */
export function notFoundHandler(c: Context) {
  if (isPageVisit(c)) return plainPage(c, 404, 'Page not found', 'There is no page at this address. <a href="/">Go to the Contact Us page</a>.');
  return c.json([{ errorCode: 'NOT_FOUND', message: NOT_FOUND_MESSAGE }], 404);
}

export function errorHandler(error: Error, c: Context) {
  // A record write that failed on its fields answers with the record-error output.
  if (error instanceof RecordWriteError) return c.json(error.body, 400);
  if (error instanceof PlatformError) return errorResponse(c, error.status, error.errorCode, error.message);
  if (error instanceof ApexError) return errorResponse(c, error.status, 'APEX_ERROR', error.message, error.debugInfo);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 415) {
      const type = c.req.header('content-type') || 'no Content-Type';
      return errorResponse(c, 415, 'UNSUPPORTED_MEDIA_TYPE', `The request body must be application/json, not ${type}`);
    }
    const code = status === 400 ? 'JSON_PARSER_ERROR' : status === 413 ? 'REQUEST_TOO_LARGE' : 'INVALID_REQUEST';
    return errorResponse(c, status, code, error.message || 'The request is invalid');
  }
  // Anything else is a defect: log it with an id, and tell the client only the id.
  const errorId = randomUUID().slice(0, 8);
  console.error(`[${errorId}] ${c.req.method} ${c.req.path}:`, error);
  return errorResponse(c, 500, 'UNKNOWN_EXCEPTION', `An unexpected error occurred. Please include this ErrorId if you contact support: ${errorId}`);
}

/** What a request validation failed on, as the app's hooks are given it. */
export type ValidationResult = { success: true } | { success: false; error: z.ZodError; target: string };

/** Turns a failed request validation into the platform's 400 for the part of the request that failed. */
export function validationHook(result: ValidationResult, c: Context) {
  if (result.success) return;
  const issue = result.error.issues[0];
  const name = String(issue?.path[0] ?? '');
  const raw = (where: string) => (where === 'param' ? c.req.param(name) : where === 'query' ? c.req.query(name) : c.req.header(name));
  switch (result.target) {
    case 'param':
    case 'query':
    case 'header': {
      const value = raw(result.target) ?? '';
      const kind = result.target === 'query' ? 'query parameter' : result.target === 'header' ? 'header' : 'parameter';
      const code = result.target === 'param' && /Ids?$/.test(name) ? 'INVALID_ID_FIELD' : 'ILLEGAL_QUERY_PARAMETER_VALUE';
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
