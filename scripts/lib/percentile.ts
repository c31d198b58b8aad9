/**
 * The q-quantile of times sorted in ascending order, by the nearest-rank method: the smallest value with at least
 * q of the values at or below it (q = 0.99 of 100 values is the 99th). NaN for no values. Every benchmark's median,
 * p95 and p99 are this.
 */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** The values in ascending order, in a new array. */
export const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
