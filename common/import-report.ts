/**
 * The CSV import's report and options as its routes answer and take them (server/routes/record-import.ts),
 * shared by the server that makes them (server/platform/import), the screen (web/src/lightning/import),
 * `npm run import` and the import's benchmark.
 */

export type ImportRowStatus = 'new' | 'changed' | 'unchanged' | 'invalid';
type ImportRowOutcome = 'created' | 'updated' | 'unchanged' | 'failed' | 'not written';

/** How a column was mapped: by the field's label or API name, the user's saved mapping, the request's choice. */
export type MappedBy = 'label' | 'apiName' | 'saved' | 'chosen';

/** CSV header → field API name, or null to leave the column out. */
export type ColumnChoices = Record<string, string | null>;

export interface ImportColumn {
  header: string;
  /** The field's API name; null for a column not mapped. */
  field: string | null;
  fieldLabel: string | null;
  by: MappedBy | null;
  /** Mapped to a field the user may neither create nor update: reported, never written. */
  readOnly: boolean;
}

/** A field a column may map to. */
export interface ImportField {
  apiName: string;
  label: string;
  required: boolean;
}

/** A field a row changes: its value now and in the file, as the user reads them ('' for blank). */
export interface ImportChange {
  field: string;
  label: string;
  old: string;
  new: string;
}

/** Why a row is invalid or failed (an error), or what the user should know (a warning); field null for the row. */
export interface ImportProblem {
  field: string | null;
  message: string;
}

export interface ImportRowReport {
  /** The line of the file the row starts on. */
  line: number;
  status: ImportRowStatus;
  recordId: string | null;
  changes: ImportChange[];
  errors: ImportProblem[];
  warnings: ImportProblem[];
  /** What the commit did with the row; null in a dry run. */
  outcome: ImportRowOutcome | null;
}

export interface ImportTotals {
  rows: number;
  new: number;
  changed: number;
  unchanged: number;
  invalid: number;
  created: number;
  updated: number;
  failed: number;
}

export interface ImportReport {
  objectApiName: string;
  columns: ImportColumn[];
  fields: ImportField[];
  matchKey: string[];
  allOrNone: boolean;
  committed: boolean;
  totals: ImportTotals;
  rows: ImportRowReport[];
  /** A commit's history: each batch's transaction id, and the history rows they wrote. */
  history?: { transactionIds: string[]; rows: number };
  message?: string;
}

/** What the dry run and the commit are told besides the file. */
export interface ImportOptions {
  /**
   * CSV header → field API name, or null to skip the column. Columns absent here are mapped automatically (label
   * or API name, case-insensitive); when absent entirely, the user's saved mapping is used first.
   */
  mapping?: ColumnChoices;
  /**
   * Fields whose values together find the existing record of a row without an Id. Default: the fields of the
   * object's first matching rule (duplicate-rules metadata). [] matches rows without an Id to no record.
   */
  matchKey?: string[];
  /** Nothing is written if any row is invalid or any write fails (one transaction for the whole commit). */
  allOrNone?: boolean;
}

/**
 * A line of the commit's NDJSON answer: progress as batches are written, then the report; or, when the commit
 * fails once under way, an error in its place.
 */
export type CommitLine =
  | { type: 'progress'; done: number; total: number }
  | { type: 'error'; errorCode: string; message: string }
  | ({ type: 'report' } & ImportReport);
