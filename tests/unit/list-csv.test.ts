/** The cells and rows of a list's CSV export (server/platform/lists/csv.ts): RFC 4180 and the escaping rule. */
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvRows, escapeText, unescapeText } from '../../server/platform/lists/csv.ts';

describe('escapeText', () => {
  it("puts a ' before text that a spreadsheet would run as a formula", () => {
    for (const text of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', '＝1', '＋1', '－1', '＠x'])
      expect(escapeText(text), JSON.stringify(text)).toBe(`'${text}`);
  });

  it("puts one before text that begins with ' too, so that an import can always take one off", () => {
    expect(escapeText("'=1")).toBe("''=1");
    expect(escapeText("'quoted")).toBe("''quoted");
  });

  it('leaves other text alone, a formula character past the first included', () => {
    for (const text of ['', 'Acme', 'a=b', ' =1', '1-2', 'Ünïcødé', '"=1"']) expect(escapeText(text)).toBe(text);
  });
});

describe('unescapeText', () => {
  it("takes off the ' that escapeText put, giving back every text", () => {
    for (const text of ['=1+1', '-1', '@x', '\tx', '\rx', '＝1', "'", "'=1", "''x", 'Acme', "it's", ''])
      expect(unescapeText(escapeText(text)), JSON.stringify(text)).toBe(text);
  });

  it("keeps a ' that escapeText would not have put there", () => {
    expect(unescapeText("'quoted")).toBe("'quoted");
    expect(unescapeText("'")).toBe("'");
  });
});

describe('csvRows', () => {
  it('ends each record with CRLF and quotes fields with commas, quotes or line breaks', () => {
    expect(
      csvRows([
        ['Id', 'Name'],
        ['a1', 'x, y'],
        ['a2', 'say "hi"'],
        ['a3', 'one\ntwo'],
        ['a4', 'cr\r\nlf'],
      ]),
    ).toBe('Id,Name\r\na1,"x, y"\r\na2,"say ""hi"""\r\na3,"one\ntwo"\r\na4,"cr\r\nlf"\r\n');
  });

  it('writes raw values: numbers as written, checkboxes true or false, no value as an empty field', () => {
    expect(csvRows([['a1', 12.5, -3, 0, true, false, null, undefined, '2024-05-01', 'A;B']])).toBe(
      'a1,12.5,-3,0,true,false,,,2024-05-01,A;B\r\n',
    );
  });

  it('escapes formulas in text but not negative numbers, and quotes an escaped field that needs it', () => {
    expect(csvRows([['-3', -3, '=A1,B1', '@x']])).toBe(`'-3,-3,"'=A1,B1",'@x\r\n`);
  });

  it('writes nothing for no rows; the BOM is UTF-8’s', () => {
    expect(csvRows([])).toBe('');
    expect(Buffer.from(CSV_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
