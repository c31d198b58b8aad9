import { defineConfig } from 'vitest/config';
import LastFileSequencer from './tests/support/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'web/src/**/*.test.ts', 'common/**/*.test.ts'],
    environment: 'node',
    // Empties the log of API calls (dist/coverage/api-calls.jsonl) that npm run coverage:api reads, and the
    // recording of sent properties that tests/contract/sent-properties.test.ts compares.
    // And names the run's image of a seeded PGlite database, which test servers start from.
    globalSetup: ['./tests/support/api-calls.ts', './tests/support/database-image.ts'],
    // Marks in that recording each test file that ran to its end.
    setupFiles: ['./tests/support/test-files.ts'],
    // tests/contract/sent-properties.test.ts last, after the files whose answers it compares.
    sequence: { sequencer: LastFileSequencer },
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Each contract file opens its own databases (PGlite in WebAssembly, seeding) and the process tests
    // spawn servers: on a 2-core machine, files side by side only fight for CPU and time out.
    fileParallelism: false,
    testTimeout: 30_000,
    // beforeAll opens, migrates and seeds a database: a few seconds, more on a busy machine.
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
