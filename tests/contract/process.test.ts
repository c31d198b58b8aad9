/**
 * The server as a process (node --import tsx site/main.ts) on a PGlite data directory: one process per
 * directory, a stale lock taken over after kill -9, data that survives the kill, the lock released on a
 * clean stop; and the built server that `npm start` runs (dist/server/main.js, which `npm test` builds first),
 * which gives the memory freed while it started back to the system once requests pause.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apexUrl, BRANDS, CONTROLLER, query } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { peakResidentBytes, residentBytes } from '../../scripts/lib/server-memory.ts';
import { loadMallocTrim } from '../../server/malloc-trim.ts';
import { BUILT, spawnSite, stopSites } from '../support/site-process.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** A test that starts a server on a new data directory: over the default 30 s when the machine is busy. */
const FIRST_START = { timeout: 120_000 };
/** glibc's malloc_trim, which the server calls once requests pause (none elsewhere than on Linux with glibc). */
const mallocTrim = await loadMallocTrim();

async function totals(baseUrl: string) {
  const all = await callOperation<{ contacts: { Id: string }[]; totalRecords: number }>(
    'getContacts',
    apexUrl(baseUrl, CONTROLLER, 'getContacts', query({ brands: BRANDS })),
  );
  const defaults = await callOperation<{ Id: string }[]>(
    'getDefaultContacts',
    apexUrl(baseUrl, CONTROLLER, 'getDefaultContacts'),
  );
  expect(all.status).toBe(200);
  return {
    totalRecords: all.body.totalRecords,
    ids: all.body.contacts.map((contact) => contact.Id),
    defaults: defaults.body,
  };
}

describe('the server process on a PGlite data directory', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'server-process-'));
  });
  afterEach(stopSites);
  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The built server with env, quiet after its first page (the first whole quiet second after it, when malloc_trim
   * runs, and a second more for a busy machine): its RSS then and at its peak so far, in MB; then stopped.
   */
  async function quietMemory(env: Record<string, string>): Promise<{ resident: number; peak: number }> {
    const built = await spawnSite(dataDir, env, BUILT.args);
    expect(built.child.exitCode, built.output()).toBeNull();
    const page = await fetch(`${built.baseUrl}/`);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    await new Promise((done) => setTimeout(done, 3000));
    const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
    const memory = { resident: mib(residentBytes(built.child.pid!)), peak: mib(peakResidentBytes(built.child.pid!)) };
    built.child.kill('SIGTERM');
    await built.exited;
    return memory;
  }

  // The first start on the new directory: migrations, the places and the demo data (25 s on a quiet machine).
  it(
    'refuses a second server on the same directory at once, naming the directory; the first keeps serving',
    FIRST_START,
    async () => {
      const first = await spawnSite(dataDir);
      expect(first.child.exitCode, first.output()).toBeNull();
      const before = await totals(first.baseUrl);
      expect(before.totalRecords).toBe(50);

      const second = await spawnSite(dataDir);
      const { code, at } = await second.exited;
      expect(code, second.output()).not.toBe(0);
      expect(second.output()).toContain(dataDir);
      expect(at - second.spawnedAt, 'the second server exits within 1 s of starting').toBeLessThan(1000);

      expect(await totals(first.baseUrl)).toEqual(before);
    },
  );

  it('after kill -9, a new server takes the stale lock over and finds the data as it was, not reseeded', async () => {
    const first = await spawnSite(dataDir);
    const before = await totals(first.baseUrl);
    expect(before.totalRecords).toBe(50);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    // The killed process could not release its lock: the next start must see it is stale.
    expect(readFileSync(join(dataDir, 'server.lock'), 'utf8')).toBe(String(first.child.pid));

    // Asked for more demo contacts: a server that found no contacts would seed 80, one that found them adds none.
    const next = await spawnSite(dataDir, { DEMO_CONTACTS: '80' });
    expect(next.child.exitCode, next.output()).toBeNull();
    expect(await totals(next.baseUrl)).toEqual(before);
    expect(readFileSync(join(dataDir, 'server.lock'), 'utf8')).toBe(String(next.child.pid));
  });

  it('releases the lock on SIGTERM, exiting 0', async () => {
    const server = await spawnSite(dataDir);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(true);
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    expect(code, server.output()).toBe(0);
    expect(existsSync(join(dataDir, 'server.lock'))).toBe(false);
  });

  it('runs built, as npm start runs it: after kill -9 the built server finds the data, and serves the API and the page', async () => {
    expect(
      existsSync(resolve(ROOT, 'dist/server/main.js')),
      'dist/server/main.js is built by npm run build (npm test runs it)',
    ).toBe(true);
    const first = await spawnSite(dataDir);
    const before = await totals(first.baseUrl);
    first.child.kill('SIGKILL');
    await first.exited;

    const built = await spawnSite(dataDir, BUILT.env, BUILT.args);
    expect(built.child.exitCode, built.output()).toBeNull();
    expect(await totals(built.baseUrl)).toEqual(before);
    const page = await fetch(`${built.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<div id="root">');
    built.child.kill('SIGTERM');
    expect((await built.exited).code, built.output()).toBe(0);
  });

  // server/malloc-trim.ts: without it the RSS stays where the start took it (its peak, VmHWM, less 0.6 MB 4 s after
  // the first page; with it, some 53 MB less).
  it.skipIf(!mallocTrim)(
    'gives the memory freed while starting back to the system once requests pause (glibc malloc_trim)',
    async () => {
      const { peak, resident } = await quietMemory(BUILT.env);
      expect(peak - resident, `RSS ${resident} MB once quiet, ${peak} MB at its peak`).toBeGreaterThanOrEqual(20);
    },
  );

  // npm start sets MALLOC_ARENA_MAX=2. Without it glibc gives each thread that allocates while another holds an
  // arena one of its own (V8's threads compile PGlite's WebAssembly in theirs), which keeps what it freed.
  it.skipIf(!mallocTrim)(
    "holds less memory once quiet with malloc's arenas limited as npm start limits them (glibc)",
    async () => {
      expect(BUILT.env.MALLOC_ARENA_MAX).toBe('2');
      const { MALLOC_ARENA_MAX: _limit, ...glibcArenas } = BUILT.env;
      // Run alone, this test starts on a new directory: its first start, which seeds it, takes far more.
      if (!existsSync(join(dataDir, 'PG_VERSION'))) await quietMemory(BUILT.env);
      const limited = (await quietMemory(BUILT.env)).resident;
      const unlimited = (await quietMemory(glibcArenas)).resident;
      expect(
        unlimited - limited,
        `RSS ${limited} MB with two arenas, ${unlimited} MB with glibc's own limit`,
      ).toBeGreaterThanOrEqual(10);
    },
  );
});
