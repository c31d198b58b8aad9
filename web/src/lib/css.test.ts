import { describe, expect, it } from 'vitest';
import { cssUrl, safeCssColor } from './css';

describe('safeCssColor', () => {
  it('accepts colours', () => {
    for (const color of [
      '#fff',
      '#FFFFFF',
      '#0b5cab80',
      'rgb(0, 0, 0)',
      'rgba(0 0 0 / 50%)',
      'hsl(210deg 90% 40%)',
      'white',
      'transparent',
      'var(--color-brand)',
    ]) {
      expect(safeCssColor(color), color).toBe(color);
    }
  });

  it('refuses anything that could leave the declaration', () => {
    for (const value of [
      'red; background: url(x)',
      'expression(alert(1))',
      'url(javascript:x)',
      '#ggg',
      'var(--x);color:red',
      '',
      '  ',
    ]) {
      expect(safeCssColor(value), value).toBeUndefined();
    }
    expect(safeCssColor(undefined)).toBeUndefined();
  });
});

describe('cssUrl', () => {
  it('quotes and escapes image URLs', () => {
    expect(cssUrl('/cms/media/banner.jpg')).toBe('url("/cms/media/banner.jpg")');
    expect(cssUrl('/a") , url("x')).toBe('url("/a\\") , url(\\"x")');
  });

  it('refuses unsafe URLs', () => {
    expect(cssUrl('javascript:alert(1)')).toBeUndefined();
    expect(cssUrl('data:text/html,x')).toBeUndefined();
    expect(cssUrl('')).toBeUndefined();
  });
});
