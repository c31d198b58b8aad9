/**
 * npm run dev:mock: the dev server answers the site's media URLs with the banner picture, at the width the
 * URL asks for, because Prism cannot give a picture's bytes (web/build-plugins.ts, mockMedia). Without
 * MOCK_MEDIA=1 (npm run dev, against a real server) it leaves them to its proxy.
 */
import sharp from 'sharp';
import { createServer, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { BANNER_WIDTH } from '../../server/content/banner.ts';

const CONFIG = new URL('../../web/vite.config.ts', import.meta.url).pathname;
const MEDIA = '/sfsites/c/cms/delivery/media/MCAIDH4NVWIOWEHB75VOW2AB6CJI?version=1.0';

let server: ViteDevServer | undefined;
const environment = { MOCK_MEDIA: process.env.MOCK_MEDIA, API_TARGET: process.env.API_TARGET };
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

async function start(mockMedia: boolean): Promise<string> {
  if (mockMedia) process.env.MOCK_MEDIA = '1';
  else delete process.env.MOCK_MEDIA;
  // Its proxy goes to a port nothing listens on: a request the plugin leaves alone fails there.
  process.env.API_TARGET = 'http://127.0.0.1:9';
  server = await createServer({ configFile: CONFIG, logLevel: 'silent', server: { port: 0, strictPort: false } });
  await server.listen();
  const address = server.httpServer!.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}

describe('the dev server against the mock', () => {
  it('answers a resized media URL with the banner as a JPEG of that width, and the plain URL at full size', async () => {
    const base = await start(true);
    for (const [path, width] of [
      [`/cdn-cgi/image/width=640,format=auto${MEDIA}`, 640],
      [`/cdn-cgi/image/width=960%2Cformat=auto${MEDIA}`, 960],
      [MEDIA, BANNER_WIDTH],
    ] as const) {
      const response = await fetch(base + path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.format, meta.width], path).toEqual(['jpeg', width]);
    }
  });

  it('leaves media to its proxy without MOCK_MEDIA=1', async () => {
    const base = await start(false);
    const response = await fetch(`${base}/cdn-cgi/image/width=640,format=auto${MEDIA}`);
    expect(response.headers.get('content-type')).not.toBe('image/jpeg');
  });
});
