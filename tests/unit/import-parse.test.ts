/** Reading an import's file (server/platform/import/parse.ts): the CSV forms it takes, and the files it refuses. */
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../server/platform/import/errors.ts';
import { turnsDuring } from '../support/event-loop.ts';
import { delimiterOf, MAX_COLUMNS, MAX_FILE_BYTES, MAX_ROWS, parseCsv } from '../../server/platform/import/parse.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

async function refusal(file: Uint8Array): Promise<ImportError> {
  const error = await parseCsv(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe('parseCsv', () => {
  it('lets the event loop turn between parts of a large file, so that parsing it does not hold the server', async () => {
    const lines = ['Company Name,Email'];
    // About 1.2 MB: several parts of 256 K characters.
    for (let n = 0; n < 40_000; n++) lines.push(`Company ${n},contact${n}@example.com`);
    const { result: parsed, turns } = await turnsDuring(() => parseCsv(new TextEncoder().encode(lines.join('\n'))));
    expect(parsed.rows).toHaveLength(40_000);
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('reads a header and rows, with the line each row starts on', async () => {
    expect(await parseCsv(bytes('Company,Email\r\nAcme,a@acme.example\r\nBolt,b@bolt.example\r\n'))).toEqual({
      header: ['Company', 'Email'],
      rows: [
        { line: 2, values: ['Acme', 'a@acme.example'] },
        { line: 3, values: ['Bolt', 'b@bolt.example'] },
      ],
    });
  });

  it('drops a byte order mark, and trims the headers', async () => {
    const parsed = await parseCsv(bytes('\uFEFF Company , Email\nAcme,a@acme.example'));
    expect(parsed.header).toEqual(['Company', 'Email']);
  });

  it('takes semicolons when the header line holds more of them than commas', async () => {
    const parsed = await parseCsv(bytes('Company;Email;City\n"Acme, Inc.";a@acme.example;Austin\n'));
    expect(parsed.rows[0].values).toEqual(['Acme, Inc.', 'a@acme.example', 'Austin']);
  });

  it('keeps line breaks and quotes inside quoted fields, and counts lines past them', async () => {
    const parsed = await parseCsv(
      bytes('Company,Address\r\nAcme,"1 Main St\r\nSuite 2"\r\n\r\n"Say ""hi""","a\nb\nc"\nLast,x'),
    );
    expect(parsed.rows).toEqual([
      { line: 2, values: ['Acme', '1 Main St\r\nSuite 2'] },
      { line: 5, values: ['Say "hi"', 'a\nb\nc'] },
      { line: 8, values: ['Last', 'x'] },
    ]);
  });

  it('refuses an empty file, or one with a header only', async () => {
    expect((await refusal(bytes(''))).errorCode).toBe('EMPTY_FILE');
    expect((await refusal(bytes('\uFEFF \r\n\r\n'))).errorCode).toBe('EMPTY_FILE');
    const headerOnly = await refusal(bytes('Company,Email\r\n'));
    expect([headerOnly.errorCode, headerOnly.status, headerOnly.message]).toEqual([
      'EMPTY_FILE',
      400,
      'The file has a header but no rows.',
    ]);
  });

  it('refuses what is not UTF-8 text or holds NUL characters', async () => {
    const latin1 = await refusal(new Uint8Array([0x43, 0x6f, 0x2c, 0xe9, 0x0a, 0x31, 0x2c, 0x32]));
    expect([latin1.errorCode, latin1.status]).toEqual(['NOT_CSV', 415]);
    expect((await refusal(bytes('a,b\n1,\0\n'))).errorCode).toBe('NOT_CSV');
    // A PNG's first bytes.
    expect((await refusal(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).errorCode).toBe('NOT_CSV');
  });

  it('refuses malformed CSV with the line, relaxing nothing', async () => {
    const fields = await refusal(bytes('a,b\n1,2\n1,2,3\n'));
    expect([fields.errorCode, fields.message]).toEqual([
      'NOT_CSV',
      'A row has another number of fields than the header (line 3).',
    ]);
    expect((await refusal(bytes('a,b\n1,2\n3\n'))).message).toMatch(/another number of fields/);
    expect((await refusal(bytes('a,b\n1,"open\n'))).message).toMatch(/^A quoted field is never closed/);
    expect((await refusal(bytes('a,b\n1,x"y"\n'))).message).toMatch(/^A quote is out of place \(line 2\)/);
  });

  it(`refuses a row of more than ${MAX_COLUMNS} columns, at the row that has them`, async () => {
    const wide = await refusal(bytes(`a,b\n1,2\n${','.repeat(9999)}\n`));
    expect([wide.errorCode, wide.message]).toEqual([
      'TOO_MANY_COLUMNS',
      `Line 3 has more than ${MAX_COLUMNS} columns; an import reads ${MAX_COLUMNS} at most.`,
    ]);
    expect((await refusal(bytes(`${'h,'.repeat(10_000)}h\n`))).errorCode).toBe('TOO_MANY_COLUMNS');
    // A million empty fields are refused as fast as they are read, without being kept.
    const started = performance.now();
    expect((await refusal(bytes(`a\n${','.repeat(1_000_000)}\n`))).errorCode).toBe('TOO_MANY_COLUMNS');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it(`refuses more than ${MAX_ROWS} rows, and a file of more than 25 MB before reading it`, async () => {
    expect((await refusal(bytes(`a\n${'1\n'.repeat(MAX_ROWS + 1)}`))).errorCode).toBe('TOO_MANY_ROWS');
    expect((await parseCsv(bytes(`a\n${'1\n'.repeat(MAX_ROWS)}`))).rows).toHaveLength(MAX_ROWS);
    const large = await refusal(new Uint8Array(MAX_FILE_BYTES + 1));
    expect([large.errorCode, large.status, large.message]).toEqual([
      'FILE_TOO_LARGE',
      413,
      'The file is 25 MB; an import reads 25 MB at most.',
    ]);
  });
});

describe('delimiterOf', () => {
  it('counts the header line only, outside quotes', () => {
    expect(delimiterOf('a,b,c\n1;2;3;4;5')).toBe(',');
    expect(delimiterOf('a;b;c\r\n1,2,3,4')).toBe(';');
    expect(delimiterOf('"a;b;c",d')).toBe(',');
    expect(delimiterOf('single')).toBe(',');
  });
});
