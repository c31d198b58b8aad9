/**
 * The dump format's pure parts (server/db/dump-format.ts): the load order of tables, the header and section
 * lines, the migration check, and splitting a text stream into lines.
 */
import { describe, expect, it } from 'vitest';
import {
  assertMigrationKnown,
  DUMP_FORMAT,
  DUMP_VERSION,
  DumpFormatError,
  linesOf,
  loadOrder,
  parseHeader,
  parseSection,
  quoteIdentifier,
} from '../../server/db/dump-format.ts';

describe('loadOrder', () => {
  it('puts every table after the tables it references, otherwise by name', () => {
    const order = loadOrder(
      ['user_session', 'record', 'sobject', 'cms_site', 'cms_channel', 'app_selection'],
      [
        { table: 'user_session', references: 'record' },
        { table: 'record', references: 'sobject' },
        { table: 'cms_channel', references: 'cms_site' },
      ],
    );
    expect(order).toEqual(['app_selection', 'cms_site', 'cms_channel', 'sobject', 'record', 'user_session']);
  });

  it('loads records after the object fields their search documents are made from, which no foreign key says', () => {
    const order = loadOrder(
      ['record', 'sobject', 'sobject_field'],
      [
        { table: 'record', references: 'sobject' },
        { table: 'sobject_field', references: 'sobject' },
      ],
    );
    expect(order).toEqual(['sobject', 'sobject_field', 'record']);
  });

  it('ignores references to itself and to tables not dumped', () => {
    expect(
      loadOrder(
        ['b', 'a'],
        [
          { table: 'a', references: 'a' },
          { table: 'b', references: 'schema_migration' },
        ],
      ),
    ).toEqual(['a', 'b']);
  });

  it('refuses a cycle, naming its tables', () => {
    expect(() =>
      loadOrder(
        ['a', 'b', 'c'],
        [
          { table: 'a', references: 'b' },
          { table: 'b', references: 'a' },
        ],
      ),
    ).toThrow(/a, b reference each other/);
  });
});

const header = {
  format: DUMP_FORMAT,
  version: DUMP_VERSION,
  migration: '019_record_change_notifications',
  createdAt: '2026-01-01T00:00:00.000Z',
  source: 'pglite',
  tables: { sobject: 8, record: 2412 },
};

describe('parseHeader', () => {
  it('reads a header line, its tables in order', () => {
    const parsed = parseHeader(JSON.stringify(header));
    expect(parsed).toEqual(header);
    expect(Object.keys(parsed.tables)).toEqual(['sobject', 'record']);
  });

  it.each([
    ['an empty file', undefined, /not a dump/],
    ['a line that is not JSON', 'PGDMP', /not a dump/],
    ['JSON of something else', '{"hello":1}', /not a dump/],
    ['another format version', JSON.stringify({ ...header, version: 2 }), /format version 2/],
    ['no migration', JSON.stringify({ ...header, migration: '' }), /which migration/],
    ['no tables', JSON.stringify({ ...header, tables: {} }), /count the rows/],
    ['a count that is not a whole number', JSON.stringify({ ...header, tables: { record: -1 } }), /count the rows/],
  ])('refuses %s', (_what, line, message) => {
    expect(() => parseHeader(line)).toThrow(DumpFormatError);
    expect(() => parseHeader(line)).toThrow(message);
  });
});

describe('parseSection', () => {
  it('reads the line that opens the table expected', () => {
    expect(parseSection('{"table":"record","columns":["id","fields"]}', 'record')).toEqual({
      table: 'record',
      columns: ['id', 'fields'],
    });
  });

  it('refuses another table, a row in its place, the end of the dump, or no columns', () => {
    expect(() => parseSection('{"table":"sobject","columns":["api_name"]}', 'record')).toThrow(
      /rows of record should begin here/,
    );
    expect(() => parseSection('{"id":"001"}', 'record')).toThrow(/rows of record should begin here/);
    expect(() => parseSection(undefined, 'record')).toThrow(/the dump ends/);
    expect(() => parseSection('{"table":"record","columns":[]}', 'record')).toThrow(/columns of record/);
  });
});

describe('assertMigrationKnown', () => {
  const known = ['001_org_metadata_and_records', '002_contact_us_locator_indexes'];

  it('accepts a migration this code holds, the last or an earlier one', () => {
    expect(() => assertMigrationKnown('002_contact_us_locator_indexes', known)).not.toThrow();
    expect(() => assertMigrationKnown('001_org_metadata_and_records', known)).not.toThrow();
  });

  it('refuses a dump made under a migration it does not hold (a newer version made it)', () => {
    expect(() => assertMigrationKnown('020_future', known)).toThrow(
      /020_future, which this version .* does not have \(its last is 002_contact_us_locator_indexes\)/,
    );
  });
});

describe('quoteIdentifier', () => {
  it('quotes, doubling quotes inside', () => {
    expect(quoteIdentifier('record')).toBe('"record"');
    expect(quoteIdentifier('a"b')).toBe('"a""b"');
  });
});

describe('linesOf', () => {
  async function* chunks(...parts: string[]) {
    yield* parts;
  }
  const collect = async (parts: string[]) => {
    const lines: string[] = [];
    for await (const line of linesOf(chunks(...parts))) lines.push(line);
    return lines;
  };

  it('splits on line ends, wherever the chunks break', async () => {
    expect(await collect(['{"a":1}\n{"b"', ':2}\n', '{"c":3}\n'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(await collect(['x', 'y', 'z\n\nw\n'])).toEqual(['xyz', '', 'w']);
  });

  it('gives a last line without its line end, and nothing for an empty stream', async () => {
    expect(await collect(['a\nb'])).toEqual(['a', 'b']);
    expect(await collect([])).toEqual([]);
  });

  it('joins a line of many chunks', async () => {
    const parts = Array.from({ length: 1000 }, () => 'ab');
    expect(await collect([...parts, '\n'])).toEqual(['ab'.repeat(1000)]);
  });
});
