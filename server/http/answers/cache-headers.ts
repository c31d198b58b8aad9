/**
 * Cache headers from the contract: a GET with x-cache-ttl answers 200 with Cache-Control max-age and a
 * strong ETag, and 304 with no body when If-None-Match holds that ETag.
 */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { jsonOf } from '../../platform/core/etag.ts';
import { acceptsBrotli, brotli, brotliEtag } from './compression.ts';
import { requestHeader } from '../connections/request-header.ts';
import { serializedJson } from './serialized-json.ts';

/** The Cache-Control of answers that may be kept ttlMs milliseconds, by the caller's browser only. */
function cacheControlFor(ttlMs: number): string {
  return `private, max-age=${Math.floor(ttlMs / 1000)}`;
}

/**
 * The Vary of a kept answer: what the handler varies on (Accept-Encoding, say), and Cookie, because what a
 * caller may see depends on its session: a copy kept as a guest is not the signed-in user's.
 */
export function varyWithSession(vary: string | null | undefined): string {
  return vary ? `${vary}, Cookie` : 'Cookie';
}

/**
 * The cache headers of a kept answer, on every path that sends one (the router's, through cacheFor, and the
 * replay stage's): its ETag, the Cache-Control of the operation's x-cache-ttl, and its Vary with Cookie.
 */
export function cacheHeaders(
  ttlMs: number,
  etag: string,
  vary: string | null | undefined,
): { ETag: string; 'Cache-Control': string; Vary: string } {
  return { ETag: etag, 'Cache-Control': cacheControlFor(ttlMs), Vary: varyWithSession(vary) };
}

/** Whether an If-None-Match header names the ETag (a list, weak validators and * included). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // The compressed representations ("…-gzip", "…-br") have the same content as the plain one.
  const content = (tag: string) =>
    tag
      .trim()
      .replace(/^W\//, '')
      .replace(/-(?:gzip|br)"$/, '"');
  return ifNoneMatch.split(',').some((candidate) => content(candidate) === content(etag));
}

/** Conditional GET for an operation whose answers may be kept ttlMs milliseconds. */
export function cacheFor(ttlMs: number): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET' || c.res.status !== 200) return;
    // A handler that knows its representation's eTag sets it; otherwise it is a hash of the body.
    let etag = c.res.headers.get('ETag');
    if (!etag) {
      // The body is read once and answered from its bytes: a clone would tee its stream, and cost as much again.
      const body = new Uint8Array(await c.res.arrayBuffer());
      etag = `"${createHash('md5').update(body).digest('hex')}"`;
      c.res = new Response(body, c.res);
    }
    // A 304 carries the Vary the 200 would have (RFC 9110 §15.4.5), such as Accept-Encoding. (Hono copies the
    // 200's headers onto the Response that replaces it, so these are set once that is done.)
    const headers = cacheHeaders(ttlMs, etag, c.res.headers.get('Vary'));
    if (etagMatches(c.req.header('If-None-Match'), etag)) c.res = new Response(null, { status: 304 });
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** Answers that must not be reused (imperative calls). */
export const noCache: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-cache');
};

/**
 * Answers a representation that carries its eTag with that eTag as the ETag header, so that the two agree.
 * A representation serialized before (kept in memory, or by withEtagFirst) is not serialized again.
 *
 * A representation kept in memory (object info, layouts, picklists: one that is answered a second time) goes
 * in Brotli to clients that name br, as the pages do: compressed once, for as long as it is kept, with the
 * ETag of that coding ("…-br"), which If-None-Match takes for the representation's own.
 */
export function withETag<T extends { eTag: string }>(c: Context, body: T) {
  const { body: json, headers } = representationForm(body, acceptsBrotli(requestHeader(c, 'accept-encoding')));
  return serializedJson<T>(c, json, headers);
}

/** What withETag answers with for a representation: its body (JSON, or Brotli when kept and wanted) and headers. */
export function representationForm(
  body: { eTag: string },
  brotliWanted: boolean,
): { body: Uint8Array<ArrayBuffer> | string; headers: Record<string, string> } {
  const etag = `"${body.eTag}"`;
  const brotli = brotliOfKept(body, brotliWanted);
  if (brotli)
    return {
      body: brotli,
      headers: {
        ETag: brotliEtag(etag),
        'Content-Type': 'application/json',
        'Content-Encoding': 'br',
        Vary: 'Accept-Encoding',
      },
    };
  return { body: jsonOf(body), headers: { ETag: etag, 'Content-Type': 'application/json', Vary: 'Accept-Encoding' } };
}

/** Smaller JSON gains too little from a coding to be worth one. */
const MIN_COMPRESSED_BYTES = 1024;

/** Per representation answered before: false until answered twice, then its JSON in Brotli (or null, too small). */
const cachedCodings = new WeakMap<object, Uint8Array<ArrayBuffer> | null | false>();

/** The representation's JSON in Brotli, when the client wants it and the representation is kept. */
function brotliOfKept(body: object, wanted: boolean): Uint8Array<ArrayBuffer> | undefined {
  const kept = cachedCodings.get(body);
  if (kept === undefined) {
    // A representation made for one answer is never seen again: nothing to keep a coding for.
    cachedCodings.set(body, false);
    return undefined;
  }
  if (!wanted) return undefined;
  if (kept !== false) return kept ?? undefined;
  const text = jsonOf(body);
  const compressed = text.length < MIN_COMPRESSED_BYTES ? null : new Uint8Array(brotli(text));
  cachedCodings.set(body, compressed);
  return compressed ?? undefined;
}
