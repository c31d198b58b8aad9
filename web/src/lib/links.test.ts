import { describe, expect, it } from 'vitest';
import { FALLBACK_HREF, isValidLink, resolveLink, safeImageUrl } from './links';

const HOST = 'shop.example.com';

describe('resolveLink', () => {
  it('accepts site-relative links and fragments', () => {
    expect(resolveLink('/contact-us?country=Canada', HOST)).toEqual({
      href: '/contact-us?country=Canada',
      kind: 'internal',
      opensOutsideApp: false,
    });
    expect(resolveLink('/', HOST).kind).toBe('internal');
    expect(resolveLink('#locator', HOST)).toEqual({ href: '#locator', kind: 'fragment', opensOutsideApp: false });
  });

  it('accepts absolute http(s) links on the same host only', () => {
    expect(resolveLink('https://shop.example.com/products', HOST).kind).toBe('internal');
    expect(resolveLink('http://SHOP.example.com/', HOST).kind).toBe('internal');
    expect(resolveLink('https://evil.example.net/products', HOST)).toEqual({
      href: FALLBACK_HREF,
      kind: 'invalid',
      opensOutsideApp: false,
    });
    expect(resolveLink('https://shop.example.com.evil.net/', HOST).kind).toBe('invalid');
    expect(resolveLink('https://shop.example.com:8443/', HOST).kind).toBe('invalid');
    expect(resolveLink('https://user:pw@shop.example.com/', HOST).kind).toBe('invalid');
  });

  it('allows mailto: and tel:, which open outside the app', () => {
    expect(resolveLink('mailto:sales@example.com', HOST)).toEqual({
      href: 'mailto:sales@example.com',
      kind: 'mailto',
      opensOutsideApp: true,
    });
    expect(resolveLink('TEL:+15125550147', HOST).kind).toBe('tel');
  });

  it('replaces script, data and other schemes by the fallback', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0000javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/png;base64,AAAA',
      'ftp://shop.example.com/file',
      'file:///etc/passwd',
    ]) {
      expect(resolveLink(url, HOST), url).toEqual({ href: FALLBACK_HREF, kind: 'invalid', opensOutsideApp: false });
    }
  });

  it('refuses protocol-relative and backslash links that leave the host', () => {
    expect(resolveLink('//evil.example.net/x', HOST).kind).toBe('invalid');
    expect(resolveLink('/\\evil.example.net/x', HOST).kind).toBe('invalid');
  });

  it('refuses relative paths, empty and missing links', () => {
    expect(isValidLink('contact', HOST)).toBe(false);
    expect(isValidLink('?page=2', HOST)).toBe(false);
    expect(isValidLink('', HOST)).toBe(false);
    expect(isValidLink('   ', HOST)).toBe(false);
    expect(isValidLink(null, HOST)).toBe(false);
    expect(isValidLink(undefined, HOST)).toBe(false);
  });

  it('follows what the browser follows: tabs and newlines removed, ends trimmed', () => {
    expect(resolveLink('  /about\n', HOST).href).toBe('/about');
  });
});

describe('safeImageUrl', () => {
  it('accepts http(s), relative and inline image URLs', () => {
    expect(safeImageUrl('https://cdn.example.com/a.jpg')).toBe('https://cdn.example.com/a.jpg');
    expect(safeImageUrl('/cms/media/banner.jpg')).toBe('/cms/media/banner.jpg');
    expect(safeImageUrl('img/banner.jpg')).toBe('img/banner.jpg');
    expect(safeImageUrl('//cdn.example.com/a.jpg')).toBe('//cdn.example.com/a.jpg');
    expect(safeImageUrl('data:image/png;base64,AAAA')).toBe('data:image/png;base64,AAAA');
  });

  it('refuses script and non-image data URLs', () => {
    expect(safeImageUrl('javascript:alert(1)')).toBeNull();
    expect(safeImageUrl('data:text/html,hi')).toBeNull();
    expect(safeImageUrl('')).toBeNull();
    expect(safeImageUrl(undefined)).toBeNull();
  });
});
