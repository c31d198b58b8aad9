/**
 * How far V8 lets a thread's heap grow past what its last full garbage collection left live before it collects
 * again: by HEAP_GROWING_PERCENT, where V8 by default lets it grow by up to 300 % when collecting is cheap beside
 * the work between collections, as it is under load here.
 *
 * Why: under `npm run bench:api`'s mixed load the main thread's old generation grew to 143 MB for 54 MB live
 * before its next full collection; the RSS peaked at 2.5 times its idle size on PostgreSQL and 1.9 times on
 * PGlite. At 50 % the old generation is collected every few seconds of that load, mostly off the request path
 * (incrementally and on V8's own threads). Lower shares keep little more memory off and cost more CPU: the
 * figures are in docs/architecture.md (Memory).
 *
 * Set before the PGlite worker starts: V8's flags are the process's, and each heap reads this one as it sets
 * the limit of its next collection.
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

/** Sets V8's heap growing factor to 1 + HEAP_GROWING_PERCENT / 100 for every heap of the process. */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
