import { describe, expect, it } from 'vitest';
import { memoByObject } from './memo';

describe('memoByObject', () => {
  it('makes the value once per object, and anew for another object', () => {
    let calls = 0;
    const lengthOf = memoByObject((list: readonly string[]) => {
      calls++;
      return list.map((item) => item.length);
    });
    const a = ['one', 'three'];
    const first = lengthOf(a);
    expect(first).toEqual([3, 5]);
    expect(lengthOf(a)).toBe(first);
    expect(calls).toBe(1);
    expect(lengthOf(['one', 'three'])).not.toBe(first);
    expect(calls).toBe(2);
  });

  it('keeps a value that is undefined', () => {
    let calls = 0;
    const nothing = memoByObject(() => {
      calls++;
      return undefined;
    });
    const key = {};
    expect(nothing(key)).toBeUndefined();
    expect(nothing(key)).toBeUndefined();
    expect(calls).toBe(1);
  });
});
