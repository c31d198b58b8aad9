/**
 * npm run dev:mock: the mock wants a sid cookie on the operations that need a session, and the dev server has no
 * sessions, so the back office's calls that carry none are given one on their way to the mock
 * (web/build-plugins.ts, backOfficeDevPages). The storefront's calls stay a guest's, and against a real server
 * (npm run dev, no MOCK_EXAMPLES=1) nothing is added.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';

const CONFIG = new URL('../../web/vite.config.ts', import.meta.url).pathname;
const APPS = '/services/data/v65.0/ui-api/apps?formFactor=Large';

let dev: ViteDevServer | undefined;
let target: Server | undefined;
const environment = { MOCK_EXAMPLES: process.env.MOCK_EXAMPLES, API_TARGET: process.env.API_TARGET };
afterEach(async () => {
  await dev?.close();
  dev = undefined;
  await new Promise((done) => (target ? target.close(done) : done(undefined)));
  target = undefined;
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** The dev server, its proxy going to a server that answers with the Cookie header it was sent. */
async function start(mock: boolean): Promise<string> {
  target = createHttpServer((request, response) => response.end(request.headers.cookie ?? ''));
  await new Promise<void>((done) => target!.listen(0, '127.0.0.1', done));
  process.env.API_TARGET = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  if (mock) process.env.MOCK_EXAMPLES = '1';
  else delete process.env.MOCK_EXAMPLES;
  dev = await createServer({ configFile: CONFIG, logLevel: 'silent', server: { port: 0, strictPort: false } });
  await dev.listen();
  return `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
}

/** The Cookie header the API got for a call made from the page at `from`, with `cookie` if given. */
async function cookieSent(base: string, from: string, cookie?: string): Promise<string> {
  const response = await fetch(base + APPS, { headers: { referer: base + from, ...(cookie && { cookie }) } });
  return response.text();
}

describe('the back office in the dev server', () => {
  it('gives the back office’s calls to the mock a session cookie, and leaves the storefront’s alone', async () => {
    const base = await start(true);
    expect(await cookieSent(base, '/lightning/o/APT_Contact_Us__c/list')).toBe('sid=mock-session');
    expect(await cookieSent(base, '/lightning')).toBe('sid=mock-session');
    expect(await cookieSent(base, '/lightning/r/APT_Contact_Us__c/a1C8d0000000001EAA/view', 'theme=dark')).toBe(
      'theme=dark; sid=mock-session',
    );
    // A cookie of its own is kept as it is.
    expect(await cookieSent(base, '/lightning', 'sid=abc')).toBe('sid=abc');
    expect(await cookieSent(base, '/')).toBe('');
    expect(await cookieSent(base, '/lightningx')).toBe('');
  });

  it('adds nothing against a real server (no MOCK_EXAMPLES=1)', async () => {
    const base = await start(false);
    expect(await cookieSent(base, '/lightning/o/APT_Contact_Us__c/list')).toBe('');
  });
});
