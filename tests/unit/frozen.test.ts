import { describe, expect, it } from 'vitest';
import { frozenUnderTest } from '../../server/cache/frozen.ts';

describe('frozenUnderTest', () => {
  it('deep-freezes what a cache keeps, under test, so that changing it throws', () => {
    const representation = frozenUnderTest({
      apiName: 'X',
      fields: { Name: { value: 'a', displayValue: null } },
      childRelationships: [{ field: 'F' }],
    });
    expect(Object.isFrozen(representation)).toBe(true);
    expect(() => {
      (representation.fields.Name as { value: string }).value = 'b';
    }).toThrow(TypeError);
    expect(() => (representation.childRelationships as unknown[]).push({})).toThrow(TypeError);
  });

  it('leaves bytes, Maps and Sets as they are, and returns the value itself', () => {
    const body = new Uint8Array([1, 2, 3]);
    const kept = { body, index: new Map([['a', 1]]) };
    expect(frozenUnderTest(kept)).toBe(kept);
    body[0] = 9;
    kept.index.set('b', 2);
    expect(body[0]).toBe(9);
    expect(kept.index.size).toBe(2);
  });
});
