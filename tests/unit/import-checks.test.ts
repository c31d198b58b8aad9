/** The checks of an import's rows (server/platform/import/checks.ts) that need no database. */
import { describe, expect, it } from 'vitest';
import type { ImportRowReport } from '../../common/import-report.ts';
import type { DescribedObject, OrgDescribe } from '../../server/platform/core/describe.ts';
import { planWrites, ROWS_PER_TURN } from '../../server/platform/import/checks.ts';
import type { PlanRow } from '../../server/platform/import/plan-row.ts';
import { turnsDuring } from '../support/event-loop.ts';
import { admin, OBJECT } from '../support/import.ts';

/** A row the dry run found invalid already: planWrites passes over it. */
function invalidRow(line: number): PlanRow {
  const report: ImportRowReport = {
    line,
    status: 'invalid',
    recordId: null,
    changes: [],
    errors: [],
    warnings: [],
    outcome: null,
  };
  return { parsed: { line, values: [] }, input: {}, report };
}

describe('planWrites', () => {
  it('lets the event loop turn every ROWS_PER_TURN rows, so that a large file does not hold the server', async () => {
    const rows = Array.from({ length: ROWS_PER_TURN * 2 + 1 }, (_, index) => invalidRow(index + 2));
    const object = { apiName: OBJECT, definition: { flags: {} } } as unknown as DescribedObject;
    const { turns } = await turnsDuring(() =>
      planWrites({} as OrgDescribe, admin, object, [], () => ({}) as never, rows),
    );
    expect(turns).toBeGreaterThanOrEqual(2);
  });
});
