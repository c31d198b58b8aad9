import { describe, expect, it } from 'vitest';
import { SUPPORT_LINES } from '../../server/content/seed.ts';
import { supportLabelOf, supportRowsFromLabel } from '../../common/support-lines.ts';

const LABEL =
  '1-800-555-0142|+1-414-555-0177|1-800-555-0163|webstore@northgate-electrical.example|US Customer Service|International Customer Service|Tech Support|Webstore Support';
const ROWS = [
  { label: 'US Customer Service', value: '1-800-555-0142' },
  { label: 'International Customer Service', value: '+1-414-555-0177' },
  { label: 'Tech Support', value: '1-800-555-0163' },
  { label: 'Webstore Support', value: 'webstore@northgate-electrical.example' },
];

describe('supportRowsFromLabel', () => {
  it('pairs parts 1-4 (the values) with parts 5-8 (their row labels), in order', () => {
    expect(supportRowsFromLabel(LABEL)).toEqual(ROWS);
  });

  it('trims the parts and leaves out rows with neither a value nor a label', () => {
    expect(supportRowsFromLabel(' a | | c |  | A | | C | ')).toEqual([
      { label: 'A', value: 'a' },
      { label: 'C', value: 'c' },
    ]);
  });

  it('keeps a row that has only one of its two parts, and ignores parts past the eighth', () => {
    expect(supportRowsFromLabel('a|b|c|d|A||C|D|extra')).toEqual([
      { label: 'A', value: 'a' },
      { label: '', value: 'b' },
      { label: 'C', value: 'c' },
      { label: 'D', value: 'd' },
    ]);
  });

  it('answers no rows for a missing or empty label', () => {
    expect(supportRowsFromLabel('')).toEqual([]);
    expect(supportRowsFromLabel(undefined)).toEqual([]);
    expect(supportRowsFromLabel(null)).toEqual([]);
  });
});

describe('supportLabelOf', () => {
  it('is what supportRowsFromLabel reads back', () => {
    expect(supportLabelOf(ROWS)).toBe(LABEL);
    expect(supportRowsFromLabel(supportLabelOf(ROWS))).toEqual(ROWS);
  });

  it('refuses other than four rows, and parts holding the separator or nothing', () => {
    expect(() => supportLabelOf([{ label: 'A', value: 'a' }])).toThrow(/4 rows/);
    expect(() => supportLabelOf([{ label: 'A|B', value: 'a' }, ...ROWS.slice(1)])).toThrow(/Bad support line/);
    expect(() => supportLabelOf([{ label: 'A', value: ' ' }, ...ROWS.slice(1)])).toThrow(/Bad support line/);
  });

  it('built the seeded label: the four support lines, with 555-01xx numbers and .example addresses', () => {
    const rows = supportRowsFromLabel(SUPPORT_LINES);
    expect(rows.map((row) => row.label)).toEqual([
      'US Customer Service',
      'International Customer Service',
      'Tech Support',
      'Webstore Support',
    ]);
    for (const { value } of rows) expect(value).toMatch(/555-01\d\d$|@[a-z-]+\.example$/);
  });
});
