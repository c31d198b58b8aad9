import { describe, expect, it } from 'vitest';
import { skipReason, summaryLines } from '../support/summary-reporter.ts';

describe('the test summary', () => {
  it('takes the reason a test was skipped from its name or the nearest suite that gives one', () => {
    expect(skipReason(['keeps the page', 'guest pages on pglite (needs the caches on: not CACHES=off)'])).toBe(
      'the caches on: not CACHES=off',
    );
    expect(skipReason(['two servers (needs PostgreSQL: set TEST_DATABASE_URL)', 'outer (needs CACHES=off)'])).toBe(
      'PostgreSQL: set TEST_DATABASE_URL',
    );
    expect(skipReason(['plain', 'suite'])).toBe('no reason given');
  });

  it('closes with the counts, then the reasons, most skipped first', () => {
    const skipped = new Map([
      ['CACHES=off', 2],
      ['PostgreSQL: set TEST_DATABASE_URL', 19],
    ]);
    expect(summaryLines({ passed: 10, failed: 1, skipped: 21 }, skipped)).toEqual([
      'tests: 10 passed, 1 failed, 21 skipped',
      '  skipped 19: they need PostgreSQL: set TEST_DATABASE_URL',
      '  skipped 2: they need CACHES=off',
    ]);
  });
});
