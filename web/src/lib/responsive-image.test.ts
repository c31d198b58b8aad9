import { describe, expect, it } from 'vitest';
import { isResizable, resizedImageUrl, responsiveImage } from './responsive-image';
import { parseSrcset } from './srcset';

const MEDIA = '/sfsites/c/cms/delivery/media/MCAIDH4NVWIOWEHB75VOW2AB6CJI?version=1.0';

describe('resizedImageUrl', () => {
  it('puts the options in front of the site path and keeps its version', () => {
    expect(resizedImageUrl(MEDIA, { width: 960 })).toBe(
      '/cdn-cgi/image/width=960,format=auto/sfsites/c/cms/delivery/media/MCAIDH4NVWIOWEHB75VOW2AB6CJI?version=1.0',
    );
    expect(resizedImageUrl('/sfsites/c/img/banner.jpg', { width: 640, height: 400, fit: 'cover' })).toBe(
      '/cdn-cgi/image/width=640,height=400,fit=cover,format=auto/sfsites/c/img/banner.jpg',
    );
  });

  it('knows which URLs the resizing service serves', () => {
    expect(isResizable(MEDIA)).toBe(true);
    expect(isResizable('/sfsites/c/img/banner.jpg')).toBe(true);
    expect(isResizable('https://cdn.example/banner.jpg')).toBe(false);
    expect(isResizable('/sfsites/c/cms/delivery/media/../../x')).toBe(false);
  });
});

describe('responsiveImage', () => {
  it('gives each device its width at 1x and 2x (spec §9), and the <img> every width with sizes', () => {
    const image = responsiveImage(MEDIA, { width: 2400, height: 800 })!;
    expect(
      image.sources.map((source) => [source.formFactor, parseSrcset(source.srcset).map((c) => c.descriptor)]),
    ).toEqual([
      ['mobile', ['1x', '2x']],
      ['tablet', ['1x', '2x']],
      ['desktop', ['1x', '2x']],
    ]);
    const widths = (srcset: string) =>
      parseSrcset(srcset).map((candidate) => Number(/width=(\d+)/.exec(candidate.url)![1]));
    expect(image.sources.map((source) => widths(source.srcset))).toEqual([
      [640, 1280],
      [960, 1920],
      [1920, 3840],
    ]);
    expect(image.sources.map((source) => [source.width, source.height])).toEqual([
      [640, 213],
      [960, 320],
      [1920, 640],
    ]);
    expect(parseSrcset(image.srcset).map((candidate) => candidate.descriptor)).toEqual([
      '640w',
      '960w',
      '1280w',
      '1920w',
      '3840w',
    ]);
    expect(image.sizes).toBe('100vw');
    expect(image.src).toBe(resizedImageUrl(MEDIA, { width: 1920 }));
    for (const source of image.sources)
      for (const { url } of parseSrcset(source.srcset)) expect(url).toMatch(/format=auto.*\?version=1\.0$/);
  });

  it('cuts a device’s files to its shape when asked', () => {
    const image = responsiveImage(MEDIA, { width: 2400, height: 800, cropAspect: { mobile: 1.6 } })!;
    const mobile = image.sources[0];
    expect([mobile.width, mobile.height]).toEqual([640, 400]);
    expect(parseSrcset(mobile.srcset).map((candidate) => candidate.url)).toEqual([
      resizedImageUrl(MEDIA, { width: 640, height: 400, fit: 'cover' }),
      resizedImageUrl(MEDIA, { width: 1280, height: 800, fit: 'cover' }),
    ]);
    expect(image.sources[1].srcset).not.toContain('fit=cover');
  });

  it('leaves other URLs and unknown sizes alone', () => {
    expect(responsiveImage('https://cdn.example/banner.jpg', { width: 2400, height: 800 })).toBeNull();
    expect(responsiveImage(MEDIA, { width: 0, height: 800 })).toBeNull();
  });
});
