/**
 * Media and image resizing over real HTTP on every test database, as a guest: the seeded banner picture as
 * uploaded (getManagedContentMedia, getSiteImage) and resized (getResizedManagedContentMedia,
 * getResizedSiteImage) at the page's image widths and their 2x, in the format the Accept header allows, with
 * the 100 px minimum, cache headers by version, ETags and 304s. Every answer is checked against the contract.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { variantCacheStats } from '../../server/content/media.ts';
import { NOT_FOUND_BODY, type ErrorList } from '../support/api.ts';
import {
  BANNER_FILE,
  BANNER_IMAGE,
  BANNER_SIZE,
  BANNER_VERSION,
  fetchImage,
  mediaUrl,
  MISSING_KEY,
  resizedUrl,
  siteImageUrl,
} from '../support/content.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATED = 'private, max-age=300';

/** The format of an image by its first bytes, not by what the server says it is. */
function sniff(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 4, 12) === 'ftypavif') return 'avif';
  return 'unknown';
}

const ACCEPTS = [
  // What Chromium sends for images, a browser with WebP but not AVIF, and one with neither.
  ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'avif'],
  ['image/webp,*/*', 'webp'],
  ['image/jpeg,image/*;q=0.8', 'jpeg'],
] as const;

describe.each(databases())('media on %s', (kind) => {
  let server: TestServer;
  let stored: Buffer;
  const image = (operationId: string, path: string, headers: Record<string, string> = {}) =>
    fetchImage(operationId, `${server.baseUrl}${path}`, { headers });

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 5 });
    const { rows } = await server.db.query<{ data: Uint8Array }>(
      'SELECT data FROM managed_content_media WHERE content_key = $1',
      [BANNER_IMAGE.key],
    );
    stored = Buffer.from(rows[0].data);
  });
  afterAll(() => server?.close());

  it('seeded the banner as a real picture in the database: a 2400 × 800 JPEG, at least 1920 pixels wide', async () => {
    const metadata = await sharp(stored).metadata();
    expect(metadata.format).toBe('jpeg');
    expect({ width: metadata.width, height: metadata.height }).toEqual(BANNER_SIZE);
    expect(metadata.width).toBeGreaterThanOrEqual(1920);
    // A picture, not a flat fill: its pixels vary.
    const stats = await sharp(stored).stats();
    expect(stats.channels.every((channel) => channel.stdev > 10)).toBe(true);
  });

  describe('getManagedContentMedia', () => {
    it('answers the file as stored, kept for a year when the URL names the current version', async () => {
      const { status, headers, bytes } = await image(
        'getManagedContentMedia',
        mediaUrl(BANNER_IMAGE.key, BANNER_VERSION),
      );
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe('image/jpeg');
      expect(bytes.equals(stored)).toBe(true);
      expect(headers.get('cache-control')).toBe(IMMUTABLE);
      expect(headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    });

    it('revalidates after five minutes without a version or with an old one', async () => {
      for (const url of [mediaUrl(BANNER_IMAGE.key), mediaUrl(BANNER_IMAGE.key, '0.9')]) {
        const { status, headers, bytes } = await image('getManagedContentMedia', url);
        expect(status, url).toBe(200);
        expect(headers.get('cache-control'), url).toBe(REVALIDATED);
        expect(bytes.equals(stored)).toBe(true);
      }
    });

    it('answers 304 with no body to If-None-Match of its ETag, in a list or weak, and 200 to another', async () => {
      const etag = (await image('getManagedContentMedia', mediaUrl(BANNER_IMAGE.key, BANNER_VERSION))).headers.get(
        'etag',
      )!;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const { status, headers, bytes } = await image(
          'getManagedContentMedia',
          mediaUrl(BANNER_IMAGE.key, BANNER_VERSION),
          { 'If-None-Match': ifNoneMatch },
        );
        expect(status, ifNoneMatch).toBe(304);
        expect(bytes.length).toBe(0);
        expect(headers.get('etag')).toBe(etag);
        expect(headers.get('cache-control')).toBe(IMMUTABLE);
      }
      const other = await image('getManagedContentMedia', mediaUrl(BANNER_IMAGE.key, BANNER_VERSION), {
        'If-None-Match': '"0123456789abcdef0123456789abcdef"',
      });
      expect(other.status).toBe(200);
    });

    it('answers 404 in the error list shape for a key of no image, 400 for a malformed key or version', async () => {
      for (const key of [MISSING_KEY, 'MCAUSNJ4FHK6FEVMPNHLKDC45C44']) {
        const missing = await callOperation<ErrorList>('getManagedContentMedia', `${server.baseUrl}${mediaUrl(key)}`);
        expect(missing.status, key).toBe(404);
        expect(missing.body).toEqual(NOT_FOUND_BODY);
      }
      expect((await callOperation('getManagedContentMedia', `${server.baseUrl}${mediaUrl('banner')}`)).status).toBe(
        400,
      );
      expect(
        (await callOperation('getManagedContentMedia', `${server.baseUrl}${mediaUrl(BANNER_IMAGE.key, 'latest')}`))
          .status,
      ).toBe(400);
    });
  });

  describe('getSiteImage', () => {
    it('answers the same file by its file name, with the same ETag and cache rules', async () => {
      const byKey = await image('getManagedContentMedia', mediaUrl(BANNER_IMAGE.key, BANNER_VERSION));
      const byName = await image('getSiteImage', siteImageUrl(BANNER_FILE, BANNER_VERSION));
      expect(byName.status).toBe(200);
      expect(byName.bytes.equals(stored)).toBe(true);
      expect(byName.headers.get('etag')).toBe(byKey.headers.get('etag'));
      expect(byName.headers.get('cache-control')).toBe(IMMUTABLE);
      expect((await image('getSiteImage', siteImageUrl(BANNER_FILE))).headers.get('cache-control')).toBe(REVALIDATED);
      const notModified = await image('getSiteImage', siteImageUrl(BANNER_FILE), {
        'If-None-Match': byKey.headers.get('etag')!,
      });
      expect(notModified.status).toBe(304);
    });

    it('answers 404 for a file that does not exist, 400 for a malformed name', async () => {
      const missing = await callOperation<ErrorList>(
        'getSiteImage',
        `${server.baseUrl}${siteImageUrl('no-such-picture.jpg')}`,
      );
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(NOT_FOUND_BODY);
      expect((await callOperation('getSiteImage', `${server.baseUrl}${siteImageUrl('.hidden')}`)).status).toBe(400);
    });
  });

  describe('getResizedManagedContentMedia', () => {
    // The page's image widths (mobile 640, tablet 960, desktop 1920) at 1x and 2x. 3840 is wider
    // than the 2400-pixel original: the answer stays 2400 wide, because an image is never enlarged.
    const WIDTHS = [640, 960, 1920, 1280, 3840];
    const cases = WIDTHS.flatMap((width) => ACCEPTS.map(([accept, format]) => [width, format, accept] as const));

    it.each(cases)('serves the banner %i px wide as %s for Accept %s', async (width, format, accept) => {
      const { status, headers, bytes } = await image(
        'getResizedManagedContentMedia',
        resizedUrl(`width=${width},format=auto`),
        { Accept: accept },
      );
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe(`image/${format}`);
      expect(sniff(bytes)).toBe(format);
      const expectedWidth = Math.min(width, BANNER_SIZE.width);
      const metadata = await sharp(bytes).metadata();
      expect({ width: metadata.width, height: metadata.height }).toEqual({
        width: expectedWidth,
        height: Math.round((expectedWidth * BANNER_SIZE.height) / BANNER_SIZE.width),
      });
      expect(headers.get('cache-control')).toBe(IMMUTABLE);
      expect(headers.get('vary')).toBe('Accept');
    });

    it('raises sizes below the 100 px minimum to 100 rather than refusing them', async () => {
      const narrow = await image('getResizedManagedContentMedia', resizedUrl('width=50'), { Accept: 'image/jpeg' });
      expect(narrow.status).toBe(200);
      expect(await sharp(narrow.bytes).metadata()).toMatchObject({ width: 100, height: 33 });
      const low = await image('getResizedManagedContentMedia', resizedUrl('height=10'), { Accept: 'image/jpeg' });
      expect(await sharp(low.bytes).metadata()).toMatchObject({ width: 300, height: 100 });
      const tiny = await image('getResizedManagedContentMedia', resizedUrl('w=1,h=1,fit=cover'), {
        Accept: 'image/jpeg',
      });
      expect(await sharp(tiny.bytes).metadata()).toMatchObject({ width: 100, height: 100 });
    });

    it('fills a box with fit=cover, never beyond the original', async () => {
      const square = await image('getResizedManagedContentMedia', resizedUrl('width=640,height=640,fit=cover'), {
        Accept: 'image/webp',
      });
      expect(await sharp(square.bytes).metadata()).toMatchObject({ width: 640, height: 640, format: 'webp' });
      const wide = await image('getResizedManagedContentMedia', resizedUrl('width=3840,height=600,fit=cover'), {
        Accept: 'image/webp',
      });
      expect(await sharp(wide.bytes).metadata()).toMatchObject({ width: 2400, height: 375 });
    });

    it('uses a format asked for whatever Accept says, and gives each format its own ETag', async () => {
      const asked = await image('getResizedManagedContentMedia', resizedUrl('width=640,format=jpeg'), {
        Accept: ACCEPTS[0][0],
      });
      expect(sniff(asked.bytes)).toBe('jpeg');
      const etags = new Set<string>();
      for (const [accept] of ACCEPTS)
        etags.add(
          (await image('getResizedManagedContentMedia', resizedUrl('width=640'), { Accept: accept })).headers.get(
            'etag',
          )!,
        );
      expect(etags.size).toBe(3);
    });

    it('answers 304 to If-None-Match of a variant ETag, and revalidates unversioned URLs after five minutes', async () => {
      const first = await image('getResizedManagedContentMedia', resizedUrl('width=960'), { Accept: 'image/webp' });
      const again = await image('getResizedManagedContentMedia', resizedUrl('width=960'), {
        Accept: 'image/webp',
        'If-None-Match': first.headers.get('etag')!,
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      const unversioned = await image(
        'getResizedManagedContentMedia',
        resizedUrl('width=960', BANNER_IMAGE.key, null),
        { Accept: 'image/webp' },
      );
      expect(unversioned.headers.get('cache-control')).toBe(REVALIDATED);
      expect(unversioned.headers.get('etag')).toBe(first.headers.get('etag'));
    });

    it.skipIf(!CACHES_ON)(
      'encodes each size and format once, even when asked for it several times at once (needs the caches on: not CACHES=off)',
      async () => {
        // A width no other test asks for, different on each database, so that the variant is new here.
        const width = kind === 'pglite' ? 701 : 702;
        const before = variantCacheStats();
        const answers = await Promise.all(
          [1, 2, 3].map(() =>
            image('getResizedManagedContentMedia', resizedUrl(`width=${width}`), { Accept: 'image/avif' }),
          ),
        );
        const later = await image('getResizedManagedContentMedia', resizedUrl(`width=${width}`), {
          Accept: 'image/avif',
        });
        const after = variantCacheStats();
        expect(after.encoded - before.encoded).toBe(1);
        expect(after.hits - before.hits).toBeGreaterThanOrEqual(1);
        for (const answer of [...answers, later]) expect(answer.bytes.equals(later.bytes)).toBe(true);
      },
    );

    it.each([
      ['an unknown option', 'blur=5'],
      ['a repeated option', 'width=640,w=320'],
      ['width 0', 'width=0'],
      ['a width over 10000', 'width=10001'],
      ['a width that is not a number', 'width=wide'],
      ['an unknown fit', 'fit=contain'],
      ['an unknown format', 'format=gif'],
      ['upper-case options', 'WIDTH=640'],
      ['a value with a space', 'width=6%2040'],
    ])('answers 400 in the error list shape for %s', async (_name, options) => {
      const { status, body } = await callOperation<ErrorList>(
        'getResizedManagedContentMedia',
        `${server.baseUrl}${resizedUrl(options)}`,
      );
      expect(status).toBe(400);
      expect(body[0].errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
      expect(body[0].message).toContain('options');
    });

    it('answers 404 for a key of no image, and 400 for bad options whatever the key', async () => {
      expect(
        (
          await callOperation(
            'getResizedManagedContentMedia',
            `${server.baseUrl}${resizedUrl('width=640', MISSING_KEY)}`,
          )
        ).status,
      ).toBe(404);
      expect(
        (await callOperation('getResizedManagedContentMedia', `${server.baseUrl}${resizedUrl('blur=5', MISSING_KEY)}`))
          .status,
      ).toBe(400);
    });
  });

  describe('getResizedSiteImage', () => {
    it('resizes the file by its name exactly as by its content key', async () => {
      const path = (options: string) =>
        `/cdn-cgi/image/${options}/sfsites/c/img/${BANNER_FILE}?version=${BANNER_VERSION}`;
      const byName = await image('getResizedSiteImage', path('width=960'), { Accept: 'image/webp' });
      const byKey = await image('getResizedManagedContentMedia', resizedUrl('width=960'), { Accept: 'image/webp' });
      expect(byName.status).toBe(200);
      expect(byName.headers.get('etag')).toBe(byKey.headers.get('etag'));
      expect(byName.bytes.equals(byKey.bytes)).toBe(true);
      expect(byName.headers.get('cache-control')).toBe(IMMUTABLE);
      const missing = await callOperation<ErrorList>(
        'getResizedSiteImage',
        `${server.baseUrl}/cdn-cgi/image/width=960/sfsites/c/img/nothing.jpg`,
      );
      expect(missing.status).toBe(404);
      expect((await callOperation('getResizedSiteImage', `${server.baseUrl}${path('height=abc')}`)).status).toBe(400);
    });
  });
});
