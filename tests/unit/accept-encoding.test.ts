import { describe, expect, it } from 'vitest';
import { acceptsBrotli, acceptsGzip, brotliEtag, gzipEtag } from '../../server/http/answers/compression.ts';

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['GZIP', true],
    ['x-gzip', true],
    ['*', true],
    ['deflate, *;q=0.5', true],
  ])('accepts %s', (header, expected) => expect(acceptsGzip(header)).toBe(expected));

  it.each([
    [undefined],
    [''],
    ['identity'],
    ['br, deflate'],
    ['gzip;q=0'],
    ['gzip;q=0.000, identity'],
    ['*;q=0'],
    ['*, gzip;q=0'],
  ])('refuses %s', (header) => expect(acceptsGzip(header)).toBe(false));
});

describe('gzipEtag', () => {
  it('marks the gzipped representation inside the quotes', () => {
    expect(gzipEtag('"0cc175b9c0f1b6a831c399e269772661"')).toBe('"0cc175b9c0f1b6a831c399e269772661-gzip"');
  });
});

describe('acceptsBrotli', () => {
  it.each([['gzip, deflate, br, zstd'], ['BR'], ['br;q=0.5, gzip']])('accepts %s', (header) =>
    expect(acceptsBrotli(header)).toBe(true),
  );

  // A wildcard is answered with gzip, which every client that sends one has.
  it.each([[undefined], [''], ['gzip, deflate'], ['*'], ['br;q=0'], ['br;q=0, *'], ['brotli']])(
    'refuses %s',
    (header) => expect(acceptsBrotli(header)).toBe(false),
  );
});

describe('brotliEtag', () => {
  it('marks the Brotli representation inside the quotes', () => {
    expect(brotliEtag('"0cc175b9c0f1b6a831c399e269772661"')).toBe('"0cc175b9c0f1b6a831c399e269772661-br"');
  });
});
