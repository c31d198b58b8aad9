/**
 * Media files of image content, as uploaded and resized: the resizing options of an image URL, the size an
 * answer will have (100 px minimum, never larger than the original), the format a browser accepts, the cache
 * headers' values, and the encoded variants, each encoded once and kept in a bounded memory cache.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { CACHES_ON } from '../cache/switch.ts';
import type { Queryable } from '../db/connection.ts';
import { notFound, PlatformError } from '../platform/core/errors.ts';

/** sharp (native, a quarter of a second to load) is loaded when a picture is first drawn or resized, not at start. */
const sharp = (...args: Parameters<typeof import('sharp').default>): ReturnType<typeof import('sharp').default> =>
  (createRequire(import.meta.url)('sharp') as typeof import('sharp').default)(...args);

const MIN_IMAGE_SIZE = 100;
const MAX_IMAGE_SIZE = 10_000;
/** A year: what a URL naming the current version of a file may be kept for. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/**
 * URLs without the current version may answer another file at any time: the browser keeps them for the
 * content cache's 5 minutes (its default time-to-live, 300 s; the operations' x-cache-ttl), shared caches
 * do not.
 */
export const REVALIDATED_CACHE_CONTROL = 'private, max-age=300';

type ImageFormat = 'avif' | 'webp' | 'jpeg';
type Fit = 'scale-down' | 'cover';

interface ImageOptions {
  width: number | null;
  height: number | null;
  fit: Fit;
  format: ImageFormat | 'auto';
}

interface Size {
  width: number;
  height: number;
}

/** The size of an answer, and whether it is cut from the middle of the original (fit=cover). */
interface SizePlan extends Size {
  crop: boolean;
}

export const MEDIA_TYPES: Record<ImageFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' };
const FORMAT_NAMES: Record<string, ImageFormat | 'auto'> = {
  auto: 'auto',
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpeg',
  jpg: 'jpeg',
};
const OPTION_NAMES: Record<string, keyof ImageOptions> = {
  width: 'width',
  w: 'width',
  height: 'height',
  h: 'height',
  fit: 'fit',
  format: 'format',
  f: 'format',
};

const badOptions = (text: string, why: string) =>
  new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Illegal value for parameter 'options': ${text} (${why})`);

/**
 * Reads the options segment of a resizing URL: `width=960,height=320,fit=cover,format=auto`. Sizes are
 * whole numbers from 1 to 10000 (the 100 px minimum is applied by plannedSize, not refused here).
 */
export function parseImageOptions(text: string): ImageOptions {
  const options: ImageOptions = { width: null, height: null, fit: 'scale-down', format: 'auto' };
  const seen = new Set<keyof ImageOptions>();
  for (const part of text.split(',')) {
    const match = /^([a-z]+)=([a-z0-9-]+)$/.exec(part);
    if (!match) throw badOptions(text, `${part || 'an empty option'} is not name=value`);
    const [, name, value] = match;
    const option = OPTION_NAMES[name];
    if (!option) throw badOptions(text, `unknown option ${name}`);
    if (seen.has(option)) throw badOptions(text, `${option} given twice`);
    seen.add(option);
    if (option === 'width' || option === 'height') {
      const size = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
      if (!(size >= 1 && size <= MAX_IMAGE_SIZE))
        throw badOptions(text, `${option} must be a whole number from 1 to ${MAX_IMAGE_SIZE}`);
      options[option] = size;
    } else if (option === 'fit') {
      if (value !== 'scale-down' && value !== 'cover') throw badOptions(text, 'fit must be scale-down or cover');
      options.fit = value;
    } else {
      const format = FORMAT_NAMES[value];
      if (!format) throw badOptions(text, 'format must be auto, avif, webp or jpeg');
      options.format = format;
    }
  }
  return options;
}

/**
 * The size of the answer to a resizing request on an original of the given size. Sizes below 100 px are
 * raised to 100; an image is never enlarged, so a size beyond the original comes down to it (keeping the
 * aspect ratio asked for). scale-down fits the picture in the box keeping its own aspect ratio; cover, with
 * both sizes, fills the box, cutting from the middle.
 */
export function plannedSize(original: Size, options: Pick<ImageOptions, 'width' | 'height' | 'fit'>): SizePlan {
  const width = options.width === null ? null : Math.max(MIN_IMAGE_SIZE, options.width);
  const height = options.height === null ? null : Math.max(MIN_IMAGE_SIZE, options.height);
  if (options.fit === 'cover' && width !== null && height !== null) {
    const scale = Math.max(width / original.width, height / original.height);
    if (scale <= 1) return { width, height, crop: true };
    return {
      width: Math.max(1, Math.round(width / scale)),
      height: Math.max(1, Math.round(height / scale)),
      crop: true,
    };
  }
  const scale = Math.min(
    width === null ? Infinity : width / original.width,
    height === null ? Infinity : height / original.height,
    1,
  );
  return {
    width: Math.max(1, Math.round(original.width * scale)),
    height: Math.max(1, Math.round(original.height * scale)),
    crop: false,
  };
}

/** The media types an Accept header accepts (q above 0), lower-cased; wildcards are kept as written. */
function acceptedTypes(accept: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const entry of (accept ?? '').split(',')) {
    const [type, ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!type) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type);
  }
  return accepted;
}

/**
 * The format of an answer: the one asked for, or with auto the best the browser names in Accept: AVIF,
 * else WebP, else JPEG. A wildcard (image/*, *\/*) does not count as naming AVIF or WebP: old browsers send it
 * and cannot show them.
 */
export function negotiateFormat(accept: string | undefined, requested: ImageFormat | 'auto'): ImageFormat {
  if (requested !== 'auto') return requested;
  const accepted = acceptedTypes(accept);
  if (accepted.has('image/avif')) return 'avif';
  if (accepted.has('image/webp')) return 'webp';
  return 'jpeg';
}

/** A URL naming the file's current version never changes: a year, immutable. Any other: five minutes. */
export function mediaCacheControl(askedVersion: string | undefined, currentVersion: string): string {
  return askedVersion === currentVersion ? IMMUTABLE_CACHE_CONTROL : REVALIDATED_CACHE_CONTROL;
}

export interface MediaInfo {
  contentKey: string;
  fileName: string;
  mimeType: string;
  width: number;
  height: number;
  checksum: string;
  version: string;
}

/** A strong ETag of the file as uploaded: its checksum. */
export function originalEtag(media: MediaInfo): string {
  return `"${media.checksum.slice(0, 32)}"`;
}

/** Bumped when the encoder settings change, so that no cache keeps an old encoding under the same ETag. */
const ENCODING = 'jpeg80p-webp78-avif50e1';

/** A strong ETag of a variant, known before it is encoded: the file's checksum, the size and the format. */
export function variantEtag(media: MediaInfo, plan: SizePlan, format: ImageFormat): string {
  const text = `${media.checksum}:${plan.width}x${plan.height}:${plan.crop ? 'cover' : 'scale-down'}:${format}:${ENCODING}`;
  return `"${createHash('md5').update(text).digest('hex')}"`;
}

interface MediaRow {
  content_key: string;
  file_name: string;
  mime_type: string;
  width: number;
  height: number;
  checksum: string;
  version: string;
}

/** The file of a published image item, by its content key or its file name; 404 when there is none. */
export async function findMedia(db: Queryable, by: { contentKey: string } | { fileName: string }): Promise<MediaInfo> {
  const [column, value] = 'contentKey' in by ? ['content_key', by.contentKey] : ['file_name', by.fileName];
  const { rows } = await db.query<MediaRow>(
    `SELECT m.content_key, m.file_name, m.mime_type, m.width, m.height, m.checksum, m.version
     FROM managed_content_media m
     WHERE m.${column} = $1 AND EXISTS (
       SELECT 1 FROM managed_content mc JOIN managed_content_channel cc ON cc.managed_content_id = mc.id WHERE mc.content_key = m.content_key)`,
    [value],
  );
  if (rows.length === 0) throw notFound();
  const row = rows[0];
  return {
    contentKey: row.content_key,
    fileName: row.file_name,
    mimeType: row.mime_type,
    width: Number(row.width),
    height: Number(row.height),
    checksum: row.checksum,
    version: row.version,
  };
}

/** The bytes of a file as uploaded. */
export async function mediaBytes(db: Queryable, media: MediaInfo): Promise<Buffer> {
  const { rows } = await db.query<{ data: Uint8Array }>(
    'SELECT data FROM managed_content_media WHERE content_key = $1',
    [media.contentKey],
  );
  if (rows.length === 0) throw notFound();
  const data = rows[0].data;
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** Encoded variants kept in memory, least recently used first, up to a total size. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
const variants = new Map<string, Buffer>();
const encoding = new Map<string, Promise<Buffer>>();
const counters = { encoded: 0, hits: 0, cachedBytes: 0 };

/** How often variants were encoded and served from the cache (for tests and monitoring). */
export function variantCacheStats() {
  return { encoded: counters.encoded, hits: counters.hits, entries: variants.size, bytes: counters.cachedBytes };
}

function remember(key: string, bytes: Buffer) {
  if (!CACHES_ON || bytes.length > MAX_CACHED_BYTES || variants.has(key)) return;
  variants.set(key, bytes);
  counters.cachedBytes += bytes.length;
  for (const [oldest, old] of variants) {
    if (counters.cachedBytes <= MAX_CACHED_BYTES) break;
    variants.delete(oldest);
    counters.cachedBytes -= old.length;
  }
}

async function encode(original: Buffer, plan: SizePlan, format: ImageFormat): Promise<Buffer> {
  let image = sharp(original).rotate();
  image = plan.crop
    ? image.resize(plan.width, plan.height, { fit: 'cover', position: 'centre' })
    : image.resize(plan.width, plan.height, { fit: 'fill' });
  if (format === 'avif') image = image.avif({ quality: 50, effort: 1 });
  else if (format === 'webp') image = image.webp({ quality: 78 });
  else image = image.flatten({ background: '#ffffff' }).jpeg({ quality: 80, progressive: true, mozjpeg: true });
  counters.encoded++;
  return image.toBuffer();
}

/**
 * The file at a planned size in a format. Each variant of a file version is encoded once: a cached one is
 * answered from memory, and concurrent requests for one being encoded wait for that encoding.
 */
export async function imageVariant(
  db: Queryable,
  media: MediaInfo,
  plan: SizePlan,
  format: ImageFormat,
): Promise<Buffer> {
  const key = variantEtag(media, plan, format);
  const cached = variants.get(key);
  if (cached) {
    // Most recently used goes to the end of the map's order.
    variants.delete(key);
    variants.set(key, cached);
    counters.hits++;
    return cached;
  }
  let pending = encoding.get(key);
  if (!pending) {
    pending = mediaBytes(db, media)
      .then((original) => encode(original, plan, format))
      .then((bytes) => {
        remember(key, bytes);
        return bytes;
      })
      .finally(() => encoding.delete(key));
    encoding.set(key, pending);
  }
  return pending;
}
