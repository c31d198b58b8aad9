/**
 * An import's report as a CSV file, one row per row of the imported file, in its order: Line, Status, Record Id,
 * Changes (each "Field: old → new", by the field's label, one a line), Errors, Warnings (their messages, one a
 * line) and Outcome (a commit's only). Written as the list export writes (lists/csv.ts: a UTF-8 BOM, RFC 4180
 * with CRLF, a value that begins like a formula escaped with a `'`), since the file's values come back in it.
 * Pure: the dry-run route's ?format=csv and `npm run import -- --report` both write it.
 */
import { CSV_BOM, csvRows, type CellValue } from '../lists/csv.ts';
import type { ImportReport } from '../../../common/import-report.ts';

const HEADER = ['Line', 'Status', 'Record Id', 'Changes', 'Errors', 'Warnings', 'Outcome'];

/** A value of a change as the report shows it: nothing for no value. */
const shown = (value: CellValue): string => (value === null || value === undefined ? '' : String(value));

export function importReportCsv(report: Pick<ImportReport, 'rows'>): string {
  const rows: CellValue[][] = report.rows.map((row) => [
    row.line,
    row.status,
    row.recordId,
    row.changes.map((change) => `${change.label}: ${shown(change.old)} → ${shown(change.new)}`).join('\n'),
    row.errors.map((error) => error.message).join('\n'),
    row.warnings.map((warning) => warning.message).join('\n'),
    row.outcome ?? null,
  ]);
  return CSV_BOM + csvRows([HEADER, ...rows]);
}
