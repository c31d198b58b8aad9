/**
 * Vitest's order of test files, with one change: tests/contract/sent-properties.test.ts runs last, since it
 * compares what the contract files before it recorded (tests/support/api-calls.ts).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const LAST_FILE = 'tests/contract/sent-properties.test.ts';

export default class LastFileSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isLast = (file: TestSpecification) => file.moduleId.replace(/\\/g, '/').endsWith(`/${LAST_FILE}`);
    return [...sorted.filter((file) => !isLast(file)), ...sorted.filter(isLast)];
  }
}
