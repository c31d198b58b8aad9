/**
 * The sandbox (npm run sandbox, scripts/sandbox.ts) and the web app's dev server in front of it (npm run
 * dev:sandbox): the real server on a database in memory with the demo data, which a page of the dev server signs in
 * to and writes to as to its own site, and which forgets every write when it stops.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnSite, stopSites, type SiteProcess } from '../support/site-process.ts';

const SANDBOX = ['--import', 'tsx', 'scripts/sandbox.ts'];
const CONFIG = new URL('../../web/vite.config.ts', import.meta.url).pathname;
const RECORDS = '/services/data/v65.0/ui-api/records';
/** A sandbox seeds its database at every start: some seconds, more beside another test file. */
const SLOW = { timeout: 120_000 };

let dataDir: string;
let dev: ViteDevServer | undefined;
const apiTarget = process.env.API_TARGET;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'sandbox-'));
});
afterEach(async () => {
  await dev?.close();
  dev = undefined;
  if (apiTarget === undefined) delete process.env.API_TARGET;
  else process.env.API_TARGET = apiTarget;
  await stopSites();
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The sandbox, told to use a data directory and a PostgreSQL server, both of which it must leave alone. */
function startSandbox(): Promise<SiteProcess> {
  return spawnSite(dataDir, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DEMO_CONTACTS: '20' }, SANDBOX);
}

/** The web app's dev server with its API calls sent to `target`, as npm run dev:sandbox starts it. */
async function startDevServer(target: string): Promise<string> {
  process.env.API_TARGET = target;
  dev = await createServer({ configFile: CONFIG, logLevel: 'silent', server: { port: 0, strictPort: false } });
  await dev.listen();
  return `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
}

/** Signs in through `base` as a page of `base` does (its Origin, Sec-Fetch-Site: same-origin); the session cookie. */
async function signIn(base: string, password: string): Promise<string> {
  const response = await fetch(`${base}/services/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ username: 'admin@northgate.example', password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return /sid=[^;]+/.exec(response.headers.get('set-cookie') ?? '')![0];
}

describe('npm run sandbox', () => {
  it(
    'says what it is, runs on a database in memory whatever the environment names, and lets the demo users in',
    SLOW,
    async () => {
      const sandbox = await startSandbox();
      expect(sandbox.output()).toMatch(/SANDBOX: the real server on a database in memory/);
      expect(sandbox.output()).toMatch(/everything written is lost when it stops/);
      expect(sandbox.output()).toMatch(/admin@northgate\.example \/ sandbox-admin/);
      expect(sandbox.output()).toMatch(/PGlite in :memory:/);
      expect(readdirSync(dataDir), 'the data directory named by DATA_DIR is left alone').toEqual([]);
      await signIn(sandbox.baseUrl, 'sandbox-admin');
    },
  );

  it('takes a write from a page of the dev server, and forgets it at the next start', SLOW, async () => {
    let sandbox = await startSandbox();
    const base = await startDevServer(sandbox.baseUrl);
    const cookie = await signIn(base, 'sandbox-admin');
    const created = await fetch(base + RECORDS, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, 'sec-fetch-site': 'same-origin', cookie },
      body: JSON.stringify({ apiName: 'Account', fields: { Name: 'Sandbox Supply Co' } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const read = await fetch(`${base}${RECORDS}/${id}?fields=Account.Name`, { headers: { cookie } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { fields: { Name: { value: string } } }).fields.Name.value).toBe(
      'Sandbox Supply Co',
    );

    await stopSites();
    sandbox = await startSandbox();
    const again = await signIn(sandbox.baseUrl, 'sandbox-admin');
    const gone = await fetch(`${sandbox.baseUrl}${RECORDS}/${id}?fields=Account.Name`, { headers: { cookie: again } });
    expect(gone.status, 'a record written before the restart').toBe(404);
  });
});
