/**
 * The rows of a list's CSV export (RFC 4180, by the csv-stringify package): fields separated by commas, records
 * by CRLF, a field quoted when it holds a comma, a quote or a line break, its quotes doubled. Values are written
 * raw, as the record API holds them, so that the file imports back unchanged: text and picklist API values as
 * they are, numbers as written, checkboxes `true` or `false`, dates and date-times in ISO 8601, no value as an
 * empty field.
 *
 * The escaping rule, which an import undoes: a text value that begins with `=`, `+`, `-`, `@`, a tab, a carriage
 * return (or the full-width ＝ ＋ － ＠, which some spreadsheets read as the same), or with `'`, is written with a
 * `'` before it, so that a spreadsheet shows it as text rather than running it as a formula. An import removes
 * that one leading `'` (unescapeText): since every value beginning with `'` was given one more, nothing else
 * changes, and a `'` the rule would not have put there (a `'quoted` value typed by hand) is kept. Numbers are
 * never escaped (-5 is a number, not a formula). Pure.
 */
import { stringify } from 'csv-stringify/sync';

/** The byte order mark that starts the file, so that spreadsheets read it as UTF-8. */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r'\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A text value as written: with a `'` before it when it begins like a formula or with `'` (see above). */
export function escapeText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text an escaped value stands for: escapeText's inverse, one leading `'` taken off where it put one. */
export function unescapeText(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** A field value of the record API as the cell's value (a string; empty for no value). */
export type CellValue = string | number | boolean | null | undefined;

/** Records (one array of values each, in the columns' order) as CSV lines, each ended by CRLF. */
export function csvRows(rows: CellValue[][]): string {
  if (rows.length === 0) return '';
  return stringify(rows, {
    record_delimiter: 'windows',
    // Quoted too when it holds a line feed or a carriage return alone, which the package (6.9.0) leaves bare
    // with CRLF as the record delimiter: a reader would take it for the end of the record.
    quoted_match: /[\r\n]/,
    cast: {
      string: escapeText,
      boolean: (value) => (value ? 'true' : 'false'),
      number: (value) => String(value),
    },
  });
}
