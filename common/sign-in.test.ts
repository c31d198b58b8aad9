import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInHref } from './sign-in';

describe('safeReturnPath', () => {
  it('keeps paths of this site', () => {
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/?brand=Gridmark&country=Canada')).toBe('/?brand=Gridmark&country=Canada');
    expect(safeReturnPath('/contact#locator')).toBe('/contact#locator');
  });

  it('sends anything else to the home page', () => {
    for (const value of [
      null,
      '',
      'https://elsewhere.example/',
      '//elsewhere.example/',
      '/\\elsewhere.example',
      'javascript:alert(1)',
      'relative/path',
      '/\telsewhere',
      '/login',
      '/login?startURL=/',
    ]) {
      expect(safeReturnPath(value), String(value)).toBe('/');
    }
  });
});

describe('signInHref', () => {
  it('comes back to the page it was followed from', () => {
    expect(signInHref('/', '')).toBe('/login');
    expect(signInHref('/', '?country=Canada&page=2')).toBe('/login?startURL=%2F%3Fcountry%3DCanada%26page%3D2');
    expect(signInHref('/login', '?startURL=%2F')).toBe('/login');
  });
});
