import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * The files that run one at a time, after the others: the files that measure time (a server process's start,
 * deadlines, how long the event loop was blocked: the fuzzer). Beside another file, on two cores, what they
 * measure would be the other file's load.
 */
const ALONE = [
  'tests/fuzz/**/*.test.ts',
  'tests/contract/process.test.ts',
  'tests/contract/several-servers.test.ts',
  'tests/contract/slow-clients.test.ts',
];

/**
 * The end-to-end tests, one at a time after ALONE, for the same reason: Chromium and a server, several processes,
 * and checks of what a visitor sees within so many milliseconds.
 */
const END_TO_END = ['tests/e2e/**/*.test.ts'];

/** Compares what every other file recorded (tests/support/api-calls.ts): it runs last, on its own. */
const LAST = 'tests/contract/sent-properties.test.ts';

const ALL = ['tests/**/*.test.ts', 'web/src/**/*.test.ts', 'common/**/*.test.ts'];

/** What every group shares: a project does not take the root's test options (globalSetup runs once, there). */
const shared: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  // A PostgreSQL database per worker (TEST_DATABASE_URL), then a mark in the recording of sent properties for
  // each test file that ran to its end.
  setupFiles: ['./tests/support/worker-database.ts', './tests/support/test-files.ts'],
  testTimeout: 30_000,
  // beforeAll opens, migrates and seeds a database: a few seconds, more on a busy machine.
  hookTimeout: 120_000,
};

/** A group of files: the groups run one after the other, in groupOrder; maxWorkers files of one at a time. */
function group(name: string, groupOrder: number, maxWorkers: number, include: string[], exclude: string[] = []) {
  const project: TestProjectInlineConfiguration = {
    test: { ...shared, name, include, exclude, maxWorkers, sequence: { groupOrder } },
  };
  return project;
}

export default defineConfig({
  test: {
    // Empties the log of API calls (dist/coverage/api-calls.jsonl) that npm run coverage:api reads, and the
    // recording of sent properties that tests/contract/sent-properties.test.ts compares.
    // And names the run's image of a seeded PGlite database, which test servers start from.
    globalSetup: ['./tests/support/api-calls.ts', './tests/support/database-image.ts'],
    reporters: ['default', './tests/support/summary-reporter.ts'],
    teardownTimeout: 30_000,
    projects: [
      // Two files side by side: each file's server, database and test code share one thread, so two files keep
      // both cores busy.
      group('side by side', 1, 2, ALL, [...ALONE, ...END_TO_END, LAST]),
      group('alone', 2, 1, ALONE),
      // A project of its own, so that a run can leave it out (--project): CI's run with the caches off does.
      group('end to end', 3, 1, END_TO_END),
      group('last', 4, 1, [LAST]),
    ],
  },
});
