/**
 * Beside Vitest's own report: a progress line as each test file starts (its place among the files and the time
 * since the run began), so that a long file is not a long silence; and one closing line, 'tests: N passed, N
 * failed, N skipped', with why the skipped ones were skipped. A test that may be skipped says what it needs in
 * its name or its suite's: "(needs PostgreSQL: set TEST_DATABASE_URL)", "(needs CACHES=off)"...
 */
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';

/** What a skipped test needs, from its name or a suite's: the text of "(needs …)". */
export function skipReason(names: readonly string[]): string {
  for (const name of names) {
    const match = /\(needs ([^)]+)\)/.exec(name);
    if (match) return match[1];
  }
  return 'no reason given';
}

/** The closing lines: the counts, then one line per reason tests were skipped for. */
export function summaryLines(
  counts: { passed: number; failed: number; skipped: number },
  skipped: Map<string, number>,
) {
  const lines = [`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`];
  for (const [reason, count] of [...skipped].sort((a, b) => b[1] - a[1]))
    lines.push(`  skipped ${count}: they need ${reason}`);
  return lines;
}

const clock = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

export default class SummaryReporter implements Reporter {
  private vitest?: Vitest;
  private started = Date.now();
  private files = 0;
  private begun = 0;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    this.started = Date.now();
    this.files = specifications.length;
    this.begun = 0;
  }

  onTestModuleStart(testModule: TestModule) {
    this.begun++;
    const line = `[${this.begun}/${this.files}, ${clock(Date.now() - this.started)}] ${testModule.moduleId.replace(`${process.cwd()}/`, '')}`;
    if (this.vitest) this.vitest.logger.log(line);
    else console.log(line);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped = new Map<string, number>();
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else {
          counts.skipped++;
          const names: string[] = [test.name];
          for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) names.push(parent.name);
          const reason = skipReason(names);
          skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
        }
      }
      // A file that failed before running its tests (an import error) counts as a failure too.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) counts.failed++;
    }
    console.log(`\n${summaryLines(counts, skipped).join('\n')}`);
  }
}
