import { describe, expect, it } from 'vitest';
import { findUnstorableText, isStorableText } from '../../server/http/operations/storable-text.ts';

/** An array nested depth levels deep, with value at the bottom. */
function nestedArray(depth: number, value: unknown): unknown {
  let node: unknown = [value];
  for (let level = 1; level < depth; level++) node = [node];
  return node;
}

describe('isStorableText', () => {
  it.each([['plain'], [''], ['emoji 😀'], ['\uFFFD']])('stores %j', (text) => expect(isStorableText(text)).toBe(true));
  it.each([['a\u0000b'], ['\uD800'], ['x\uDC00'], ['\uDFFF\uD800']])('refuses %j', (text) =>
    expect(isStorableText(text)).toBe(false),
  );
});

describe('findUnstorableText', () => {
  it('finds nothing in a storable document', () => {
    expect(findUnstorableText({ a: ['x', { b: 'y', c: 1, d: null, e: true }], f: new Date(0) })).toBeNull();
  });

  it("gives the path of an unstorable value: an object's own before those nested in it, each in order", () => {
    expect(findUnstorableText({ a: 'ok', b: [1, 'ok', { c: 'x\u0000' }], d: '\uD800' })).toEqual({
      path: ['d'],
      text: '\uD800',
    });
    expect(findUnstorableText({ a: 'ok', b: [1, 'ok', { c: 'x\u0000' }, { e: '\uDC00' }] })).toEqual({
      path: ['b', 2, 'c'],
      text: 'x\u0000',
    });
    expect(findUnstorableText(['ok', ['\uDC00']])).toEqual({ path: [1, 0], text: '\uDC00' });
    expect(findUnstorableText('\u0000')).toEqual({ path: [], text: '\u0000' });
  });

  it('finds an unstorable key, with the path to it', () => {
    expect(findUnstorableText({ fields: { ['Name\u0000']: 'x' } })).toEqual({
      path: ['fields', 'Name\u0000'],
      text: 'Name\u0000',
    });
  });

  it('walks 100,000 levels of nesting without overflowing the stack, and in linear time', () => {
    const started = performance.now();
    expect(findUnstorableText(nestedArray(100_000, 'ok'))).toBeNull();
    const found = findUnstorableText(nestedArray(100_000, 'bad\u0000'));
    expect(found?.path).toHaveLength(100_000);
    expect(found?.path.every((key) => key === 0)).toBe(true);
    // Milliseconds here; copying the path at every level (as it once did) took minutes at this depth.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('walks an object of 100,000 keys', () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`key${index}`, `value${index}`]));
    expect(findUnstorableText(wide)).toBeNull();
    wide.key99999 = 'x\uD800';
    expect(findUnstorableText(wide)).toEqual({ path: ['key99999'], text: 'x\uD800' });
  });
});
