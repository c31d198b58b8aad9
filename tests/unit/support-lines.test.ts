import { describe, expect, it } from 'vitest';
import { SUPPORT_LINES } from '../../server/storefront/content-seed.ts';
import { joinSupportLabel, splitSupportLabel } from '../../server/storefront/support-lines.ts';

const LABEL = '1-800-555-0142|+1-414-555-0177|1-800-555-0163|webstore@northgate-electrical.example|US Customer Service|International Customer Service|Tech Support|Webstore Support';

describe('splitSupportLabel', () => {
  it('pairs parts 1-4 (the values) with parts 5-8 (their row labels), in order', () => {
    expect(splitSupportLabel(LABEL)).toEqual([
      { label: 'US Customer Service', value: '1-800-555-0142' },
      { label: 'International Customer Service', value: '+1-414-555-0177' },
      { label: 'Tech Support', value: '1-800-555-0163' },
      { label: 'Webstore Support', value: 'webstore@northgate-electrical.example' },
    ]);
  });

  it('trims the parts', () => {
    expect(splitSupportLabel(' a | b |c|d| A|B |C|D ')).toEqual([
      { label: 'A', value: 'a' },
      { label: 'B', value: 'b' },
      { label: 'C', value: 'c' },
      { label: 'D', value: 'd' },
    ]);
  });

  it.each([
    ['seven parts', 'a|b|c|d|A|B|C'],
    ['nine parts', 'a|b|c|d|A|B|C|D|E'],
    ['an empty part', 'a||c|d|A|B|C|D'],
    ['a blank part', 'a|b|c|d|A|B| |D'],
    ['no separator', 'US Customer Service 1-800-555-0142'],
    ['nothing', ''],
  ])('is null for %s, so that rows never come out of step', (_name, text) => {
    expect(splitSupportLabel(text)).toBeNull();
  });
});

describe('joinSupportLabel', () => {
  it('is the inverse of the split', () => {
    const lines = splitSupportLabel(LABEL)!;
    expect(joinSupportLabel(lines)).toBe(LABEL);
  });

  it('refuses other than four rows, and parts holding the separator or nothing', () => {
    expect(() => joinSupportLabel([{ label: 'A', value: 'a' }])).toThrow(/4 rows/);
    const four = splitSupportLabel(LABEL)!;
    expect(() => joinSupportLabel([{ label: 'A|B', value: 'a' }, ...four.slice(1)])).toThrow(/Bad support line/);
    expect(() => joinSupportLabel([{ label: 'A', value: ' ' }, ...four.slice(1)])).toThrow(/Bad support line/);
  });

  it('built the seeded label: the four support lines, with 555-01xx numbers and .example addresses', () => {
    const lines = splitSupportLabel(SUPPORT_LINES)!;
    expect(lines.map((line) => line.label)).toEqual(['US Customer Service', 'International Customer Service', 'Tech Support', 'Webstore Support']);
    for (const { value } of lines) expect(value).toMatch(/555-01\d\d$|@[a-z-]+\.example$/);
  });
});
