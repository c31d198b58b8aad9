/** One row of an import's file on its way through the dry run (dry-run.ts), and what the commit writes of it. */
import type { ImportRowReport } from '../../../common/import-report.ts';
import type { RecordRow } from '../records/representation.ts';
import type { FieldValue } from '../records/values.ts';
import type { ParsedRow } from './parse.ts';

/** What the commit writes for a valid row that is new or changed: the fields as a create or an update takes them. */
export interface RowWrite {
  kind: 'create' | 'update';
  /** The row's fields (an update's: its Id and the fields that change). */
  fields: Record<string, FieldValue>;
}

export interface PlanRow {
  parsed: ParsedRow;
  report: ImportRowReport;
  /** The mapped fields the user may write, by API name, as a write takes them. */
  input: Record<string, FieldValue>;
  /** The record the row names by its Id or finds by its key. */
  record?: RecordRow;
  /** The key of a row without Id (its fields' texts), when none is blank. */
  key?: string[];
  /** The values as the write would store them (for the duplicate rules). */
  values?: Record<string, FieldValue>;
  changedFields?: string[];
  write?: RowWrite;
}

/** Marks the row invalid, with the reason (of a field, or of the row when field is null). */
export function invalid(row: PlanRow, field: string | null, message: string): void {
  row.report.status = 'invalid';
  row.report.errors.push({ field, message });
}
