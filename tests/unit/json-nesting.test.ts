import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds, MAX_JSON_DEPTH } from '../../common/json-nesting.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

const nested = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** The deepest nesting of a parsed JSON value (a scalar is 0), walked without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length) {
    const [node, depth] = pending.pop()!;
    if (node && typeof node === 'object') {
      deepest = Math.max(deepest, depth + 1);
      for (const item of Object.values(node)) pending.push([item, depth + 1]);
    }
  }
  return deepest;
}

describe('jsonNestingExceeds', () => {
  it('allows nesting up to the limit and refuses one level more, in arrays and objects', () => {
    expect(jsonNestingExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestingExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestingExceeds(objects(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestingExceeds(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestingExceeds('[{"a":[{"b":[]}]}]', 5)).toBe(false);
    expect(jsonNestingExceeds('[{"a":[{"b":[]}]}]', 4)).toBe(true);
  });

  it('counts depth, not the number of arrays and objects', () => {
    const wide = `[${Array.from({ length: 10_000 }, () => '{"a":[1]}').join(',')}]`;
    expect(jsonNestingExceeds(wide, 3)).toBe(false);
    expect(jsonNestingExceeds(wide, 2)).toBe(true);
  });

  it('skips brackets inside strings, honouring escaped quotes and backslashes', () => {
    expect(jsonNestingExceeds(JSON.stringify({ text: '[[[[[[[[[[{{{{{{{{{' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ text: 'a "quoted" [[[[' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ text: 'ends in a backslash \\', more: [[1]] }), 3)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ text: 'ends in a backslash \\', more: [[1]] }), 2)).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify(['\\"[[[[', '\u005b']), 1)).toBe(false);
  });

  it('gives the depth JSON.parse finds, on documents of every shape', () => {
    const documents = [
      { a: [1, { b: [[], {}] }], c: '}}}]]]' },
      [[['x'], [['y', { z: '\\' }]]]],
      { '[key': { '{key': ['"', '\\"'] } },
      'just a string [',
      12,
    ];
    for (const document of documents) {
      const text = JSON.stringify(document);
      const depth = depthOf(document);
      expect(jsonNestingExceeds(text, depth), text).toBe(false);
      if (depth > 0) expect(jsonNestingExceeds(text, depth - 1), text).toBe(true);
    }
  });

  it('answers for text that is not JSON without failing (parsing it tells what is wrong)', () => {
    expect(jsonNestingExceeds('"an unterminated string [[[[', 1)).toBe(false);
    // Closing brackets that open nothing do not make room for more depth.
    expect(jsonNestingExceeds(']]]]]][[', 1)).toBe(true);
    expect(jsonNestingExceeds('', 0)).toBe(false);
  });

  it('reads a body at the size limits in one pass: 1 MiB of brackets, a 14 MB upload string', () => {
    const started = performance.now();
    expect(jsonNestingExceeds(nested(512 * 1024))).toBe(true);
    expect(jsonNestingExceeds(`[${'1,'.repeat(500_000)}1]`)).toBe(false);
    expect(
      jsonNestingExceeds(JSON.stringify({ versionData: 'QUJD'.repeat(3_500_000), escapes: '\\"'.repeat(100_000) })),
    ).toBe(false);
    // Linear: a few tens of milliseconds here. A pass that looked back over the text would take minutes.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('leaves room above the deepest example payload of the contract', () => {
    const examples = resolve(import.meta.dirname, '../../openapi/components/examples');
    const deepest = Math.max(
      ...readdirSync(examples).map((name) =>
        depthOf((parse(readFileSync(resolve(examples, name), 'utf8')) as { value: unknown }).value),
      ),
    );
    expect(deepest).toBeGreaterThan(3);
    expect(deepest).toBeLessThan(MAX_JSON_DEPTH / 2);
  });
});
