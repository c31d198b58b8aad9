import { describe, expect, it } from 'vitest';
import { supportRowsFromLabel } from './support-lines';

describe('supportRowsFromLabel', () => {
  it('pairs parts 1-4 (values) with parts 5-8 (labels), in order', () => {
    const label =
      '1-800-555-0100|+1 414 555 0101|1-800-555-0102|webstore@northgate.example|US Customer Service|International Customer Service|Tech Support|Webstore Support';
    expect(supportRowsFromLabel(label)).toEqual([
      { label: 'US Customer Service', value: '1-800-555-0100' },
      { label: 'International Customer Service', value: '+1 414 555 0101' },
      { label: 'Tech Support', value: '1-800-555-0102' },
      { label: 'Webstore Support', value: 'webstore@northgate.example' },
    ]);
  });

  it('trims the parts and leaves out empty rows', () => {
    expect(supportRowsFromLabel(' a | | c |  | A | | C | ')).toEqual([
      { label: 'A', value: 'a' },
      { label: 'C', value: 'c' },
    ]);
  });

  it('answers no rows for a missing label', () => {
    expect(supportRowsFromLabel('')).toEqual([]);
    expect(supportRowsFromLabel(undefined)).toEqual([]);
  });
});
