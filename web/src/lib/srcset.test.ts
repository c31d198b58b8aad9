import { describe, expect, it, vi } from 'vitest';
import { parseSrcset, sanitizeSrcset } from './srcset';

describe('parseSrcset', () => {
  it('keeps URLs with width, density or no descriptor', () => {
    const warn = vi.fn();
    expect(parseSrcset('/img/a-640.jpg 640w, /img/a-1280.jpg 1280w', warn)).toEqual([
      { url: '/img/a-640.jpg', descriptor: '640w' },
      { url: '/img/a-1280.jpg', descriptor: '1280w' },
    ]);
    expect(parseSrcset('https://cdn.example.com/a.jpg, https://cdn.example.com/a@2x.jpg 2x, b.jpg 1.5x', warn)).toEqual(
      [
        { url: 'https://cdn.example.com/a.jpg', descriptor: '' },
        { url: 'https://cdn.example.com/a@2x.jpg', descriptor: '2x' },
        { url: 'b.jpg', descriptor: '1.5x' },
      ],
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps commas inside data: URLs and handles trailing commas', () => {
    const warn = vi.fn();
    expect(parseSrcset('data:image/png;base64,AAAA 1x,/b.png,, /c.png 2x', warn)).toEqual([
      { url: 'data:image/png;base64,AAAA', descriptor: '1x' },
      { url: '/b.png', descriptor: '' },
      { url: '/c.png', descriptor: '2x' },
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('skips bad entries with a warning and keeps the good ones', () => {
    const warn = vi.fn();
    const candidates = parseSrcset(
      'javascript:alert(1) 1x, /ok.jpg 2x, /zero.jpg 0w, /neg.jpg -1x, /two.jpg 1x 2x, /h.jpg 100h, data:text/html,x 1x, /w.jpg 12.5w',
      warn,
    );
    expect(candidates).toEqual([{ url: '/ok.jpg', descriptor: '2x' }]);
    expect(warn).toHaveBeenCalledTimes(7);
    expect(warn.mock.calls[0][0]).toContain('javascript:alert(1)');
  });

  it('warns on console by default', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(parseSrcset('/a.jpg 2q')).toEqual([]);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('answers nothing for an empty or missing srcset', () => {
    expect(parseSrcset('')).toEqual([]);
    expect(parseSrcset(' , ,')).toEqual([]);
    expect(parseSrcset(undefined)).toEqual([]);
  });
});

describe('sanitizeSrcset', () => {
  it('rebuilds a srcset from the valid entries', () => {
    expect(sanitizeSrcset('/a.jpg 640w,javascript:x 2x,  /b.jpg   1280w', () => undefined)).toBe(
      '/a.jpg 640w, /b.jpg 1280w',
    );
  });
});

describe('sanitizeSrcset with the console', () => {
  it('reads a srcset once: the same text again, and its bad entry warned of once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const srcset = '/img/kept-640.jpg 640w, javascript:alert(1) 2x, /img/kept-1280.jpg 1280w';
      expect(sanitizeSrcset(srcset)).toBe('/img/kept-640.jpg 640w, /img/kept-1280.jpg 1280w');
      expect(sanitizeSrcset(srcset)).toBe('/img/kept-640.jpg 640w, /img/kept-1280.jpg 1280w');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(sanitizeSrcset('/img/other.jpg 2x')).toBe('/img/other.jpg 2x');
    } finally {
      warn.mockRestore();
    }
  });
});
