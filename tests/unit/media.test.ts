import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import {
  IMMUTABLE_CACHE_CONTROL,
  mediaCacheControl,
  negotiateFormat,
  parseImageOptions,
  plannedSize,
  REVALIDATED_CACHE_CONTROL,
  variantEtag,
  type MediaInfo,
} from '../../server/content/media.ts';

const BANNER = { width: 2400, height: 800 };

describe('parseImageOptions', () => {
  it.each([
    ['width=960', { width: 960, height: null, fit: 'scale-down', format: 'auto' }],
    ['w=640,h=300', { width: 640, height: 300, fit: 'scale-down', format: 'auto' }],
    ['height=320,width=960,fit=cover,format=webp', { width: 960, height: 320, fit: 'cover', format: 'webp' }],
    ['format=jpg', { width: null, height: null, fit: 'scale-down', format: 'jpeg' }],
    ['f=avif,width=1', { width: 1, height: null, fit: 'scale-down', format: 'avif' }],
    ['width=10000', { width: 10000, height: null, fit: 'scale-down', format: 'auto' }],
  ])('reads %s', (text, expected) => {
    expect(parseImageOptions(text)).toEqual(expected);
  });

  it.each([
    ['blur=5', /unknown option blur/],
    ['width=640,w=320', /width given twice/],
    ['width=0', /whole number from 1 to 10000/],
    ['width=10001', /whole number from 1 to 10000/],
    ['width=640px', /whole number/],
    ['width=-5', /whole number/],
    ['fit=contain', /fit must be scale-down or cover/],
    ['format=gif', /format must be auto, avif, webp or jpeg/],
    ['width', /is not name=value/],
    ['width=640,', /an empty option is not name=value/],
    ['', /is not name=value/],
  ])('refuses %s with a 400', (text, message) => {
    let error: unknown;
    try {
      parseImageOptions(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).status).toBe(400);
    expect((error as PlatformError).message).toMatch(message);
  });
});

describe('plannedSize', () => {
  const plan = (width: number | null, height: number | null, fit: 'scale-down' | 'cover' = 'scale-down') =>
    plannedSize(BANNER, { width, height, fit });

  it.each([
    // The page's image widths (mobile 640, tablet 960, desktop 1920) at 1x and 2x; 3840 is wider than the
    // 2400-pixel banner: it stays 2400.
    [640, 640, 213],
    [960, 960, 320],
    [1280, 1280, 427],
    [1920, 1920, 640],
    [3840, 2400, 800],
  ])(
    'scales the banner to width %i as %i × %i, keeping its 3:1 aspect ratio',
    (width, expectedWidth, expectedHeight) => {
      expect(plan(width, null)).toEqual({ width: expectedWidth, height: expectedHeight, crop: false });
    },
  );

  it('raises a size below 100 px to 100 (the minimum), rather than refusing it', () => {
    expect(plan(50, null)).toEqual({ width: 100, height: 33, crop: false });
    expect(plan(1, null)).toEqual({ width: 100, height: 33, crop: false });
    expect(plan(null, 10)).toEqual({ width: 300, height: 100, crop: false });
  });

  it('fits inside both sizes with scale-down', () => {
    expect(plan(960, 100)).toEqual({ width: 300, height: 100, crop: false });
    expect(plan(600, 600)).toEqual({ width: 600, height: 200, crop: false });
  });

  it('fills both sizes with cover, and never enlarges: an oversized box shrinks keeping its shape', () => {
    expect(plan(640, 640, 'cover')).toEqual({ width: 640, height: 640, crop: true });
    expect(plan(3840, 600, 'cover')).toEqual({ width: 2400, height: 375, crop: true });
    expect(plan(50, 50, 'cover')).toEqual({ width: 100, height: 100, crop: true });
  });

  it('treats cover with one size as scale-down, and no size as the original size', () => {
    expect(plan(960, null, 'cover')).toEqual({ width: 960, height: 320, crop: false });
    expect(plan(null, null)).toEqual({ width: 2400, height: 800, crop: false });
  });
});

describe('negotiateFormat', () => {
  it.each([
    ['image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'avif'],
    ['image/webp,*/*', 'webp'],
    ['IMAGE/WEBP', 'webp'],
    ['image/avif;q=0,image/webp;q=0.5', 'webp'],
    ['image/avif;q=0.0,image/webp;q=0', 'jpeg'],
    ['image/*', 'jpeg'],
    ['*/*', 'jpeg'],
    ['image/jpeg', 'jpeg'],
    ['', 'jpeg'],
    [undefined, 'jpeg'],
  ] as const)('with format=auto and Accept %s answers %s', (accept, expected) => {
    expect(negotiateFormat(accept, 'auto')).toBe(expected);
  });

  it('lets a format asked for win over Accept', () => {
    expect(negotiateFormat('image/avif', 'jpeg')).toBe('jpeg');
    expect(negotiateFormat('image/jpeg', 'webp')).toBe('webp');
  });
});

describe('cache headers and ETags of media', () => {
  it('keeps a URL of the current version for a year, immutable, and revalidates any other after five minutes', () => {
    expect(mediaCacheControl('1.0', '1.0')).toBe(IMMUTABLE_CACHE_CONTROL);
    expect(IMMUTABLE_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(mediaCacheControl(undefined, '1.0')).toBe(REVALIDATED_CACHE_CONTROL);
    expect(mediaCacheControl('0.9', '1.0')).toBe(REVALIDATED_CACHE_CONTROL);
  });

  it('gives each file version, size and format its own strong ETag', () => {
    const media: MediaInfo = {
      contentKey: 'MCAIDH4NVWIOWEHB75VOW2AB6CJI',
      fileName: 'a.jpg',
      mimeType: 'image/jpeg',
      ...BANNER,
      checksum: 'ab'.repeat(32),
      version: '1.0',
    };
    const size = { width: 640, height: 213, crop: false };
    const etag = variantEtag(media, size, 'avif');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(variantEtag(media, size, 'avif')).toBe(etag);
    expect(variantEtag(media, size, 'webp')).not.toBe(etag);
    expect(variantEtag(media, { ...size, width: 641 }, 'avif')).not.toBe(etag);
    expect(variantEtag({ ...media, checksum: 'cd'.repeat(32) }, size, 'avif')).not.toBe(etag);
  });
});
