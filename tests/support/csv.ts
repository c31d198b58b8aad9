/** Reading the product's CSV files in tests, with nothing of the code that writes them. */
import { parse } from 'csv-parse/sync';

/**
 * Reads a CSV file the product writes (the list export, the import's report): RFC 4180, quoted fields that may
 * hold commas, doubled quotes and line breaks, CRLF after every record, the last one too.
 */
export function readCsv(text: string): string[][] {
  if (text !== '' && !text.endsWith('\r\n')) throw new Error('The last record does not end with CRLF');
  return parse(text, { record_delimiter: '\r\n' }) as string[][];
}

/** The import's side of the escaping rule (server/platform/lists/csv.ts): one leading ' taken off. */
export const unescapeCell = (cell: string) => (cell.startsWith("'") ? cell.slice(1) : cell);
