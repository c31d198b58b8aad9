import { describe, expect, it } from 'vitest';
import { columnWidthPercent } from './Section';

describe('columnWidthPercent', () => {
  it('gives whole twelfths as percentages (the page presets 50%, 16.67%, 33.33%, 66.67%)', () => {
    expect(columnWidthPercent(12)).toBe('100%');
    expect(columnWidthPercent(6)).toBe('50%');
    expect(columnWidthPercent(2)).toBe('16.6667%');
    expect(columnWidthPercent(4)).toBe('33.3333%');
    expect(columnWidthPercent(8)).toBe('66.6667%');
  });

  it('keeps widths within 1 to 12 twelfths', () => {
    expect(columnWidthPercent(0)).toBe('8.3333%');
    expect(columnWidthPercent(13)).toBe('100%');
    expect(columnWidthPercent(5.6)).toBe('50%');
    expect(columnWidthPercent(undefined)).toBe('100%');
    expect(columnWidthPercent(Number.NaN)).toBe('100%');
  });
});
