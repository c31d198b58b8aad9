import { describe, expect, it } from 'vitest';
import { ascending, percentile } from '../../scripts/lib/percentile.ts';

describe('percentile (the benchmarks’ median, p95 and p99)', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => index + 1);

  it('is the nearest rank: the smallest value with at least q of the values at or below it', () => {
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.95)).toBe(95);
    expect(percentile([1, 2, 3], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
  });

  it('is the highest value at q = 1 and the lowest at q = 0, and NaN for no values', () => {
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('sorts numbers as numbers, not as text, and leaves its input as it was', () => {
    const times = [10, 9, 100, 1];
    expect(ascending(times)).toEqual([1, 9, 10, 100]);
    expect(times).toEqual([10, 9, 100, 1]);
  });
});
