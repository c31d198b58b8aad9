/**
 * The pure parts of the screen that shows the import's report (its types: common/import-report.ts): the rows of
 * one status, a page of them, a change as text, the options sent, and the lines of the commit's NDJSON answer as
 * they arrive.
 */
import type {
  CommitLine,
  ImportChange,
  ImportColumn,
  ImportReport,
  ImportRowReport,
  ImportRowStatus,
} from '../../../../common/import-report';

/** The rows shown for a choice of status: every row for 'all'. */
export type RowFilter = ImportRowStatus | 'all';

/** How many rows a page of the review shows: enough to read, few enough that 50,000 rows never hang the page. */
export const ROWS_PER_PAGE = 100;

/** The rows of a status, in file order. */
export function rowsOf(rows: readonly ImportRowReport[], filter: RowFilter): readonly ImportRowReport[] {
  return filter === 'all' ? rows : rows.filter((row) => row.status === filter);
}

/** One page (from 0) of rows, and where it starts and ends among them (1-based, for "Rows 101–200 of 4,000"). */
export function pageOf<T>(
  rows: readonly T[],
  page: number,
  size = ROWS_PER_PAGE,
): { rows: readonly T[]; page: number; pages: number; first: number; last: number } {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const shown = Math.min(Math.max(0, page), pages - 1);
  const slice = rows.slice(shown * size, (shown + 1) * size);
  return {
    rows: slice,
    page: shown,
    pages,
    first: slice.length ? shown * size + 1 : 0,
    last: shown * size + slice.length,
  };
}

/** "1 row", "2 rows", the count grouped as the user reads numbers. */
export function rowCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`;
}

/** A value of a change as the user reads it: nothing as "(blank)". */
const valueText = (value: string): string => (value === '' ? '(blank)' : value);

/** A change as "Phone: 555 0100 → 555 0199". */
export function changeText(change: ImportChange): string {
  return `${change.label || change.field}: ${valueText(change.old)} → ${valueText(change.new)}`;
}

/**
 * The mapping the screen sends: every column of the file as the table shows it (its field, or null when it
 * is left out), so that what is reviewed is what the user sees; none before the first review, when the
 * server applies the user's saved mapping and maps the rest by label or API name.
 */
export function mappingOf(columns: readonly ImportColumn[]): Record<string, string | null> {
  return Object.fromEntries(columns.map((column) => [column.header, column.field]));
}

/**
 * The columns of a new review, each saying how it was mapped as the user knows it: once the screen sends every
 * column's field, the server takes them all as chosen, but a field the user did not change keeps the way it
 * was first found (by label, by API name, saved).
 */
export function keepHowMapped(previous: readonly ImportColumn[] | null, next: ImportColumn[]): ImportColumn[] {
  if (!previous) return next;
  return next.map((column, index) => {
    const before = previous[index];
    return column.by === 'chosen' && before?.header === column.header && before.field === column.field && before.by
      ? { ...column, by: before.by }
      : column;
  });
}

/** How many rows a commit would write: the new and the changed ones (unchanged and invalid rows are not). */
export function rowsToWrite(report: ImportReport): number {
  return report.totals.new + report.totals.changed;
}

/**
 * Reads NDJSON as it arrives: each chunk of text is added to what is left of the last, and every whole line
 * is parsed. What follows the last newline waits for the next chunk (or the end: `end()`).
 */
export function ndjsonReader(): { push(text: string): CommitLine[]; end(): CommitLine[] } {
  let rest = '';
  const parse = (lines: string[]) =>
    lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as CommitLine);
  return {
    push(text) {
      const lines = (rest + text).split('\n');
      rest = lines.pop() ?? '';
      return parse(lines);
    },
    end() {
      const last = rest;
      rest = '';
      return parse([last]);
    },
  };
}
