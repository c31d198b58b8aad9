/**
 * Relative date literals as spans of UTC days, from an injected clock: weeks from Sunday, quarters from
 * January, month and year boundaries, LAST_N_DAYS including today and NEXT_N_DAYS starting tomorrow.
 */
import { describe, expect, it } from 'vitest';
import { dateLiteralInterval, MAX_RELATIVE_DAYS, nextDay } from '../../server/platform/query/date-literals.ts';

const WEDNESDAY = new Date('2024-05-15T10:30:00.000Z');

describe('dateLiteralInterval', () => {
  it.each([
    ['YESTERDAY', '2024-05-14', '2024-05-15'],
    ['TODAY', '2024-05-15', '2024-05-16'],
    ['TOMORROW', '2024-05-16', '2024-05-17'],
    ['LAST_WEEK', '2024-05-05', '2024-05-12'],
    ['THIS_WEEK', '2024-05-12', '2024-05-19'],
    ['NEXT_WEEK', '2024-05-19', '2024-05-26'],
    ['LAST_MONTH', '2024-04-01', '2024-05-01'],
    ['THIS_MONTH', '2024-05-01', '2024-06-01'],
    ['NEXT_MONTH', '2024-06-01', '2024-07-01'],
    ['LAST_QUARTER', '2024-01-01', '2024-04-01'],
    ['THIS_QUARTER', '2024-04-01', '2024-07-01'],
    ['NEXT_QUARTER', '2024-07-01', '2024-10-01'],
    ['LAST_YEAR', '2023-01-01', '2024-01-01'],
    ['THIS_YEAR', '2024-01-01', '2025-01-01'],
    ['NEXT_YEAR', '2025-01-01', '2026-01-01'],
    ['LAST_90_DAYS', '2024-02-15', '2024-05-16'],
    ['NEXT_90_DAYS', '2024-05-16', '2024-08-14'],
    ['LAST_N_DAYS:1', '2024-05-14', '2024-05-16'],
    ['LAST_N_DAYS:0', '2024-05-15', '2024-05-16'],
    ['NEXT_N_DAYS:1', '2024-05-16', '2024-05-17'],
    ['NEXT_N_DAYS:7', '2024-05-16', '2024-05-23'],
  ])('%s on Wednesday 15 May 2024 spans [%s, %s)', (literal, start, end) => {
    expect(dateLiteralInterval(literal, WEDNESDAY)).toEqual({ start, end });
  });

  it('crosses month, year and leap-day boundaries', () => {
    const newYear = new Date('2024-01-01T00:00:00.000Z');
    expect(dateLiteralInterval('YESTERDAY', newYear)).toEqual({ start: '2023-12-31', end: '2024-01-01' });
    expect(dateLiteralInterval('LAST_MONTH', newYear)).toEqual({ start: '2023-12-01', end: '2024-01-01' });
    expect(dateLiteralInterval('LAST_QUARTER', newYear)).toEqual({ start: '2023-10-01', end: '2024-01-01' });
    expect(dateLiteralInterval('THIS_WEEK', newYear)).toEqual({ start: '2023-12-31', end: '2024-01-07' });
    expect(dateLiteralInterval('TOMORROW', new Date('2024-02-28T23:59:59.999Z'))).toEqual({
      start: '2024-02-29',
      end: '2024-03-01',
    });
    expect(dateLiteralInterval('NEXT_MONTH', new Date('2024-12-31T12:00:00.000Z'))).toEqual({
      start: '2025-01-01',
      end: '2025-02-01',
    });
  });

  it('starts a week on the Sunday it is', () => {
    expect(dateLiteralInterval('THIS_WEEK', new Date('2024-05-12T00:00:00.000Z'))).toEqual({
      start: '2024-05-12',
      end: '2024-05-19',
    });
    expect(dateLiteralInterval('THIS_WEEK', new Date('2024-05-18T23:59:59.000Z'))).toEqual({
      start: '2024-05-12',
      end: '2024-05-19',
    });
  });

  it('reads names in any case', () => {
    expect(dateLiteralInterval('today', WEDNESDAY)).toEqual(dateLiteralInterval('TODAY', WEDNESDAY));
    expect(dateLiteralInterval('last_n_days:3', WEDNESDAY)).toEqual(dateLiteralInterval('LAST_N_DAYS:3', WEDNESDAY));
  });

  it.each([
    'SOMEDAY',
    '',
    'LAST_N_DAYS',
    'LAST_N_DAYS:',
    'LAST_N_DAYS:-1',
    'LAST_N_DAYS:1.5',
    `NEXT_N_DAYS:${MAX_RELATIVE_DAYS + 1}`,
    'constructor',
    '__proto__',
  ])('knows no literal %j', (literal) => {
    expect(dateLiteralInterval(literal, WEDNESDAY)).toBeUndefined();
  });

  it('gives the day after a date', () => {
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2023-12-31')).toBe('2024-01-01');
  });
});
