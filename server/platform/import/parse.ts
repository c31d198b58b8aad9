/**
 * Reading an import's file: UTF-8 (with or without a byte order mark) CSV, fields separated by commas or
 * semicolons (whichever the header line holds more of), records by CRLF, LF or CR, quoted fields that may hold
 * separators, doubled quotes and line breaks; parsed by the csv-parse package, strictly: a quote out of place, a
 * quote never closed or a row with another number of fields than the header is the file's error, not a row
 * quietly mended. Blank lines are not rows. The limits are checked before or as the file is read, so that a file
 * that breaks one stops there: its size before anything, the columns of each record in a pass before parsing
 * (checkColumns), the characters of a record (csv-parse's max_record_size), the rows as they come.
 */
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { ImportError } from './errors.ts';

/** The largest file an import reads, in bytes. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The most data rows (besides the header) a file may hold. */
export const MAX_ROWS = 50_000;
/** The most columns a row may have. */
export const MAX_COLUMNS = 500;
/** The most characters one record may hold: past it, a quote left open is the likely cause. */
const MAX_RECORD_CHARACTERS = 1_000_000;
/** Characters handed to the parser at a time: the event loop gets a turn between parts. */
const PART_CHARACTERS = 256 * 1024;

export interface ParsedRow {
  /** The line of the file where the row starts (the header's first line is 1). */
  line: number;
  values: string[];
}

interface ParsedFile {
  header: string[];
  rows: ParsedRow[];
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The file's text, or NOT_CSV: not UTF-8, or holding NUL characters (a binary file). A byte order mark is dropped. */
function textOf(file: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    throw new ImportError('NOT_CSV', 'The file is not a CSV file: it is not UTF-8 text.');
  }
  if (text.includes('\0')) throw new ImportError('NOT_CSV', 'The file is not a CSV file: it holds NUL characters.');
  return text;
}

/** The separator of the header line (up to its first line break outside quotes): a semicolon if it holds more of those than commas. */
export function delimiterOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (char === '\n' || char === '\r') break;
    else if (char === ',') commas++;
    else if (char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * Throws TOO_MANY_COLUMNS at the first record with more than MAX_COLUMNS fields: separators outside quotes
 * counted per record, in one pass over the text before it is parsed. csv-parse has no limit of its own on the
 * fields of a record (its cast hook, called per field, made parsing seven times slower, and a record is
 * checked only once whole): a row of millions of empty fields would be held whole, a gigabyte for 25 MB.
 */
function checkColumns(text: string, delimiter: string): void {
  const separator = delimiter.charCodeAt(0);
  let fields = 1;
  let line = 1;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22) quoted = !quoted;
    else if (char === 0x0a || char === 0x0d) {
      // CRLF is one line break; a break inside quotes is part of the field.
      if (char === 0x0d && text.charCodeAt(index + 1) === 0x0a) index++;
      line++;
      if (!quoted) fields = 1;
    } else if (char === separator && !quoted && ++fields > MAX_COLUMNS)
      throw new ImportError(
        'TOO_MANY_COLUMNS',
        `Line ${line} has more than ${MAX_COLUMNS} columns; an import reads ${MAX_COLUMNS} at most.`,
      );
  }
}

/**
 * The line breaks inside a record's fields (quoted ones): how many lines before its last the record starts; and
 * how many of them are CRLF, which csv-parse's line count (info.lines) counts as two lines.
 */
function breaksIn(values: string[]): { breaks: number; crlf: number } {
  let breaks = 0;
  let crlf = 0;
  for (const value of values) {
    if (!value.includes('\n') && !value.includes('\r')) continue;
    for (const [found] of value.matchAll(/\r\n|\r|\n/g)) {
      breaks++;
      if (found.length === 2) crlf++;
    }
  }
  return { breaks, crlf };
}

/** The error csv-parse gave, as the import's: the code and a message that names the line. */
function parseFailure(error: unknown): unknown {
  if (error instanceof ImportError) return error;
  const { code, lines } = error as { code?: string; lines?: number };
  const where = lines ? ` (line ${lines})` : '';
  switch (code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return new ImportError('NOT_CSV', `A row has another number of fields than the header${where}.`);
    case 'CSV_MAX_RECORD_SIZE':
      return new ImportError(
        'NOT_CSV',
        `A row holds more than ${MAX_RECORD_CHARACTERS.toLocaleString('en-US')} characters${where}: is a quote left open?`,
      );
    case 'CSV_QUOTE_NOT_CLOSED':
      return new ImportError('NOT_CSV', `A quoted field is never closed${where}.`);
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new ImportError('NOT_CSV', `A quote is out of place${where}: quote a field whole, and double its quotes.`);
    default:
      return code?.startsWith('CSV_') ? new ImportError('NOT_CSV', `The file is not valid CSV${where}.`) : error;
  }
}

/**
 * The header and data rows of an import's file, each row with the line it starts on. Throws ImportError:
 * FILE_TOO_LARGE, NOT_CSV, EMPTY_FILE (no header, or no data row), TOO_MANY_COLUMNS, TOO_MANY_ROWS.
 */
export async function parseCsv(file: Uint8Array): Promise<ParsedFile> {
  if (file.byteLength > MAX_FILE_BYTES)
    throw new ImportError(
      'FILE_TOO_LARGE',
      `The file is ${megabytes(file.byteLength)}; an import reads ${megabytes(MAX_FILE_BYTES)} at most.`,
    );
  const text = textOf(file);
  if (text.trim() === '') throw new ImportError('EMPTY_FILE', 'The file is empty.');
  const delimiter = delimiterOf(text);
  checkColumns(text, delimiter);
  const parser = parse({
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARACTERS,
    info: true,
  });
  const parts = (async function* () {
    for (let start = 0; start < text.length; start += PART_CHARACTERS) {
      // The next turn of the event loop first: a stream of parts made at once is parsed in one go, holding it.
      if (start > 0) await setImmediate();
      yield text.slice(start, start + PART_CHARACTERS);
    }
  })();
  let header: string[] | undefined;
  const rows: ParsedRow[] = [];
  let crlfInFields = 0;
  try {
    for await (const { record, info } of Readable.from(parts).pipe(parser) as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      const { breaks, crlf } = breaksIn(record);
      crlfInFields += crlf;
      if (!header) {
        header = record.map((name) => name.trim());
        continue;
      }
      if (rows.length === MAX_ROWS)
        throw new ImportError(
          'TOO_MANY_ROWS',
          `The file has more than ${MAX_ROWS.toLocaleString('en-US')} rows; an import reads ${MAX_ROWS.toLocaleString('en-US')} at most.`,
        );
      rows.push({ line: info.lines - crlfInFields - breaks, values: record });
    }
  } catch (error) {
    parser.destroy();
    throw parseFailure(error);
  }
  if (!header) throw new ImportError('EMPTY_FILE', 'The file is empty.');
  if (rows.length === 0) throw new ImportError('EMPTY_FILE', 'The file has a header but no rows.');
  return { header, rows };
}
