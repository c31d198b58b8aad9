import { describe, expect, it } from 'vitest';
import { formatPhone, telHref } from './phone';

describe('formatPhone', () => {
  it('formats 10-digit North American numbers whatever the separators', () => {
    expect(formatPhone('5125550147')).toBe('(512) 555-0147');
    expect(formatPhone('512-555-0147')).toBe('(512) 555-0147');
    expect(formatPhone('512.555.0147')).toBe('(512) 555-0147');
    expect(formatPhone('(512) 555 0147')).toBe('(512) 555-0147');
  });

  it('formats 11-digit numbers that begin with the country code 1', () => {
    expect(formatPhone('17135550188')).toBe('(713) 555-0188');
    expect(formatPhone('1-713-555-0188')).toBe('(713) 555-0188');
    expect(formatPhone('+1 713 555 0188')).toBe('(713) 555-0188');
  });

  it('leaves numbers outside North America unchanged', () => {
    expect(formatPhone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(formatPhone('+49 30 901820')).toBe('+49 30 901820');
    expect(formatPhone('+52 33 3669 0000')).toBe('+52 33 3669 0000');
    expect(formatPhone('+33 1 23 45 67 8')).toBe('+33 1 23 45 67 8');
    expect(formatPhone('44 20 7946 095')).toBe('44 20 7946 095');
  });

  it('leaves numbers with the wrong number of digits unchanged', () => {
    expect(formatPhone('555-0147')).toBe('555-0147');
    expect(formatPhone('512-555-01477')).toBe('512-555-01477');
    expect(formatPhone('2-713-555-0188')).toBe('2-713-555-0188');
  });

  it('leaves extensions and other text unchanged', () => {
    expect(formatPhone('512-555-0147 x12')).toBe('512-555-0147 x12');
    expect(formatPhone('ask for sales')).toBe('ask for sales');
    expect(formatPhone('')).toBe('');
  });
});

describe('telHref', () => {
  it('dials North American numbers with +1', () => {
    expect(telHref('512-555-0147')).toBe('tel:+15125550147');
    expect(telHref('1-713-555-0188')).toBe('tel:+17135550188');
  });

  it('keeps the digits and the + of other numbers', () => {
    expect(telHref('+44 20 7946 0958')).toBe('tel:+442079460958');
    expect(telHref('030 901820')).toBe('tel:030901820');
  });

  it('drops an extension from the number to dial', () => {
    expect(telHref('512-555-0147 x12')).toBe('tel:5125550147');
  });
});
