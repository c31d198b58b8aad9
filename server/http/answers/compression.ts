/**
 * The codings of answers: what a client's Accept-Encoding accepts, gzip and Brotli at the settings of an answer
 * compressed for one request or kept and sent many times, and the strong ETags of the compressed forms.
 */
import { promisify } from 'node:util';
import {
  brotliCompress,
  brotliCompressSync,
  constants as zlibConstants,
  gzip,
  gzipSync,
  type BrotliOptions,
} from 'node:zlib';
import type { SerializedAnswer } from '../../cache/result-cache.ts';

/**
 * zlib's fastest level, for an answer compressed for one request only: on a page of 100 KB it takes half the
 * time of level 6, for some 15 % more bytes. A kept answer, compressed once and sent many times, takes level 6.
 */
const GZIP_FAST = 1;

/** The ETag of the gzipped representation: a different representation needs a different strong ETag. */
export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}-gzip"`;
}

/**
 * Brotli's quality for an answer compressed for one request only (on a page of 100 KB, under half the time
 * of gzip's fastest level, and smaller), and for a kept one, compressed once and sent many times.
 */
const BROTLI_FAST = 1;
const BROTLI_KEPT = 5;

function brotliOptions(body: Uint8Array | string, quality: number): BrotliOptions {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size } };
}

/** Bytes or text in Brotli, at a quality (by default, that of a kept answer). */
export function brotli(body: Uint8Array | string, quality = BROTLI_KEPT): Buffer {
  return brotliCompressSync(body, brotliOptions(body, quality));
}

const brotliInPool = promisify(brotliCompress);
const gzipInPool = promisify(gzip);

/**
 * A body sent once (a page rendered for one request), compressed at the fast settings in libuv's thread pool:
 * the event loop serves other requests meanwhile, and on a machine with a core to spare the work is off its
 * thread altogether.
 */
export function compressOnce(body: Uint8Array, coding: 'br' | 'gzip'): Promise<Buffer> {
  return coding === 'br'
    ? brotliInPool(body, brotliOptions(body, BROTLI_FAST))
    : gzipInPool(body, { level: GZIP_FAST });
}

/** The ETag of the Brotli representation. */
export function brotliEtag(etag: string): string {
  return `${etag.slice(0, -1)}-br"`;
}

/**
 * Whether an Accept-Encoding header value accepts the coding: one of its names (or *, for gzip) whose quality
 * is not 0. Unspecified means any coding is acceptable (RFC 9110 §12.5.3), but identity is the safe answer then.
 */
function accepts(acceptEncoding: string | undefined, names: readonly string[], wildcard: boolean): boolean {
  if (!acceptEncoding) return false;
  let accepted = false;
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...parameters] = part.split(';');
    const name = coding.trim().toLowerCase();
    if (!names.includes(name) && !(wildcard && name === '*')) continue;
    const quality = parameters
      .map((parameter) => parameter.trim().toLowerCase())
      .find((parameter) => parameter.startsWith('q='));
    const ok = quality === undefined || Number(quality.slice(2)) > 0;
    // An explicit rule wins over the wildcard.
    if (name !== '*') return ok;
    accepted = ok;
  }
  return accepted;
}

const GZIP_NAMES = ['gzip', 'x-gzip'];
const BROTLI_NAMES = ['br'];

/**
 * What the Accept-Encoding values seen accept: there are a handful, each browser sending its own with every
 * request (a few dozen are kept; any other is worked out each time).
 */
const acceptedCodings = new Map<string, { gzip: boolean; brotli: boolean }>();

function codingsOf(acceptEncoding: string | undefined): { gzip: boolean; brotli: boolean } {
  if (!acceptEncoding) return { gzip: false, brotli: false };
  let codings = acceptedCodings.get(acceptEncoding);
  if (!codings) {
    codings = { gzip: accepts(acceptEncoding, GZIP_NAMES, true), brotli: accepts(acceptEncoding, BROTLI_NAMES, false) };
    if (acceptedCodings.size < 64) acceptedCodings.set(acceptEncoding, codings);
  }
  return codings;
}

/** Whether an Accept-Encoding header value accepts gzip: a gzip (or *) coding whose quality is not 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return codingsOf(acceptEncoding).gzip;
}

/** Whether it names Brotli (br) with a quality above 0: a wildcard is answered with gzip, which every client has. */
export function acceptsBrotli(acceptEncoding: string | undefined): boolean {
  return codingsOf(acceptEncoding).brotli;
}

/**
 * The answer's body gzipped, compressed once per answer (at the level of its first request): most clients
 * accept it, and it is a sixth of the bytes.
 */
export function gzippedBody(answer: SerializedAnswer, level = 6): Uint8Array {
  answer.gzipped ??= gzipSync(answer.body, { level });
  return answer.gzipped;
}

/** The answer's body in Brotli, compressed once per answer (at the quality of its first request). */
export function brotliBody(answer: SerializedAnswer, quality = BROTLI_KEPT): Uint8Array {
  answer.brotli ??= brotli(answer.body, quality);
  return answer.brotli;
}
