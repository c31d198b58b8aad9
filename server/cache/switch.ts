/**
 * The one switch of every data cache: CACHES=off turns each of them off, so that every request reads what it
 * needs from the database (the table of caches is in docs/architecture.md). Read once, at start. CI runs the
 * contract suite once with it off, so that no cache is ever the only reason a test passes. Finer switches stay
 * for the benchmarks: LOCATOR_CACHE=off, PAGE_CACHE=off|cold.
 */
export const CACHES_ON = process.env.CACHES !== 'off';
