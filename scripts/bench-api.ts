/**
 * Benchmarks the page and the record API: npm run bench:api [-- --duration 5 --connections 8 --mixed-duration 60
 * --mixed-connections 64 --databases postgresql,pglite --storm-only --memory-only --contention-only]
 *
 * For one server on PostgreSQL (DATABASE_URL, else the local server's `bench_api` database, created when
 * missing) and one on PGlite (BENCH_DATA_DIR, else `.data-bench-api`), each with the demo data a first start
 * seeds, it runs the whole site (the API and the server-rendered pages, NODE_ENV=production) as a child
 * process on 127.0.0.1 beside a bare Hono endpoint of the same process, and measures with wrk (Debian:
 * apt-get install wrk), in alternating one-second slices so that all meet the same background load:
 *   - with the caches on: the bare trivial endpoint; a trivial endpoint inside the app, behind the gate every
 *     answer passes; the guest page `/` (cached); the locator warm; getObjectInfo, getRecord, getLayout
 *     and getRecordUi as a signed-in administrator (repeated GETs: answered before routing from what
 *     is kept in memory), and getRecord and getRecordUi read anew (an If-None-Match no answer has sends them
 *     the router's way, to the database). Pages and the locator are asked as browsers ask (Accept-Encoding:
 *     gzip);
 *   - with the caches off (LOCATOR_CACHE=off, PAGE_CACHE=off): the bare endpoint again, the page rendered for
 *     each request (from guests' query data kept between renders), and the locator cold;
 *   - rendered cold (PAGE_CACHE=cold): the page rendered for each request from API calls made for it, only
 *     the reference data and the guest's session kept (the object's metadata and picklists, the country-to-states
 *     map: what no change of the page's own data evicts);
 *   - then, with the caches on, a mixed load at 64 connections: the locator (30 %), guest pages (20 %), records
 *     (30 %), object info (15 %) and writes (5 %: updateRecord of the demo Accounts, which no page shows);
 *   - then, with the caches on, the write storm: a writer updates representatives of one state (STORM_STATE,
 *     their phone, through updateRecord as staff write them) at 1 and at 10 updates a second while the guest
 *     page `/`, that state's locator page and getContacts for that state are measured, each in slices that
 *     alternate with the same measurement without writes (--storm-only: this alone);
 *   - then, with the caches on, contention: CONTENTION_CONNECTIONS connections updating one record (an Account, which
 *     no page shows) for CONTENTION_SECONDS while the guest page `/` is measured beside them, and `/` alone
 *     (--contention-only: this alone). On PGlite the database runs in a worker thread: its work must not hold up
 *     the answers that do not wait for it;
 *   - then the memory of the production server (dist/server/main.js, as npm start runs it, without the
 *     TypeScript loader of the servers above): its RSS idle after its start (the median of IDLE_STARTS starts), at
 *     its peak under the mixed load, and a minute after it (scripts/lib/server-memory.ts; `--memory-only`
 *     measures this alone).
 * Every target is warmed up before it is measured (warmUp; the mixed load with MIX_WARM_SECONDS of itself), so
 * that the figures are those of a server that has run a while. Each figure is given with its ratio to the bare
 * endpoint of the same run, the load average before each group, and whether the issue's target is met. Rate limits are off in the measured server (one
 * address sends every request); the body-size limit, security headers, sessions and CSRF checks stay on.
 */
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CSRF_HEADER, UI_API_PATH as UI_API } from '../common/platform.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import { makeId } from '../server/platform/core/ids.ts';
import { BRANDS } from '../server/storefront/demo-contacts.ts';
import {
  adminSessionCookie,
  IN_APP_TRIVIAL_PATH,
  measure,
  runFor,
  serveForBench,
  startServer,
  TRIVIAL_PATH,
  waitForLoad,
  type BenchTarget,
  type MeasureOptions,
  type Measurement,
  type Server,
} from './lib/bench-server.ts';
import { hasWrk, runLoad, runWrkMix, type MixedRequest, type Slice } from './lib/load-generator.ts';
import { memoryLines, residentBytes, sampleResident, startBuiltServer, type BuiltServer } from './lib/server-memory.ts';
import { ascending, percentile } from './lib/percentile.ts';

/**
 * Each target is warmed up until the code that serves it runs as it will from then on (V8 optimizes a function
 * once it has run often enough): at least WARM_REQUESTS requests, or WARM_MAX_SECONDS of load. A page render
 * needs some 2,000 renders to go from about 9 ms of CPU to its steady cost; a second of load gives a few hundred.
 */
const WARM_REQUESTS = 3_000;
const WARM_MAX_SECONDS = 15;
/**
 * The mixed load is warmed up too, at its connections, before it is measured: its writes run only there, and the
 * pool opens its connections (each preparing its statements) only under that many requests at once. Its first
 * seconds are slower: on PostgreSQL, a p99 of 105 and 151 ms in its first two 3 s slices, 42 to 98 ms in the 18
 * after.
 */
const MIX_WARM_SECONDS = 15;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/bench_api';
/** How long the production server idles after its start before its RSS is read, and how long after the load. */
const MEMORY_IDLE_SECONDS = 5;
const MEMORY_AFTER_SECONDS = 60;
/** How many times the production server is started for its idle RSS (the median is the figure). */
const IDLE_STARTS = 3;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const ACCOUNTS = [1, 2, 3].map((n) => makeId('001', n));
const locatorPath = (country: string, state: string, brand: string) =>
  `/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${encodeURIComponent(JSON.stringify({ country, state, brands: [brand], lastRecordId: null }))}`;
const LOCATOR = locatorPath('United States', 'Texas', BRANDS[0]);
const PAGES = ['/', '/?country=United+States&page=2'];
const RECORD = (id: string) =>
  `${UI_API}/records/${id}?fields=Account.Name,Account.Phone&optionalFields=Account.Industry,Account.BillingCity`;
const OBJECT_INFO = (object: string) => `${UI_API}/object-info/${object}`;
const LAYOUT = `${UI_API}/layout/Account?layoutType=Full&mode=View`;
const RECORD_UI = `${UI_API}/record-ui/${ACCOUNTS[0]}?layoutTypes=Full&modes=View`;
/** A conditional GET no answer matches: past the replay stage, read from the database, answered 200. */
const READ_ANEW = { 'if-none-match': '"not-an-etag-of-any-answer"' };

/** Targets of the issue, as ratios of req/s to the bare endpoint of the same run. */
const RATIO_TARGETS: Record<string, number> = {
  'trivial endpoint in the app': 0.85,
  getObjectInfo: 0.5,
  getLayout: 0.5,
  getRecord: 0.2,
  getRecordUi: 0.1,
};
const UNCACHED_PAGE_TARGET = 400;
/** The state whose representatives the storm's writer updates. */
const STORM_STATE = { country: 'United States', state: 'Texas' };
/** Updates a second of the storm's writer; 0 is the quiet measurement beside them. */
const STORM_RATES = [0, 1, 10];
/** At 10 updates a second, the page and the locator keep at least 70 % of their quiet req/s, with p99 ≤ 20 ms. */
const STORM_TARGET = { share: 0.7, p99: 20 };
/** The mixed load's target: no failure, p99 at most 100 ms, and at least a quarter of the bare endpoint's req/s. */
const MIXED_TARGET = { p99: 100, share: 0.25 };
/** Contention: so many connections update one record for so long; the issue's targets on PGlite. */
const CONTENTION_CONNECTIONS = 64;
const CONTENTION_SECONDS = 10;
const CONTENTION_TARGET = { updateP99: 100, pageP99: 20 };

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '8' },
    'mixed-duration': { type: 'string', default: '60' },
    'mixed-connections': { type: 'string', default: '64' },
    databases: { type: 'string', default: 'postgresql,pglite' },
    'wait-load': { type: 'string', default: '1.0' },
    'wait-max': { type: 'string', default: '60' },
    serve: { type: 'boolean', default: false },
    'storm-only': { type: 'boolean', default: false },
    'memory-only': { type: 'boolean', default: false },
    'contention-only': { type: 'boolean', default: false },
  },
});

/** A writer of the storm: updates the representatives' phones, one after another, at `rate` a second (0: none). */
class StormWriter {
  rate = 0;
  updates = 0;
  failed = 0;
  #stopped = false;
  #done: Promise<void>;

  constructor(server: Server, ids: string[], headers: Record<string, string>) {
    this.#done = this.#run(server, ids, headers);
  }

  async #run(server: Server, ids: string[], headers: Record<string, string>): Promise<void> {
    let next = Date.now();
    while (!this.#stopped) {
      if (this.rate === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        next = Date.now();
        continue;
      }
      next += 1000 / this.rate;
      const id = ids[this.updates % ids.length];
      const phone = `512-555-${String(this.updates % 10_000).padStart(4, '0')}`;
      try {
        const response = await fetch(`${server.baseUrl}${UI_API}/records/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ fields: { APT_Phone__c: phone } }),
        });
        await response.text();
        if (response.ok) this.updates++;
        else this.failed++;
      } catch {
        this.failed++;
      }
      const wait = next - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else next = Date.now();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#done;
  }
}

if (values.serve) await serveForBench(settingsFromEnv(), { site: true });
else await main();

interface Row {
  name: string;
  m: Measurement;
  ratio: number;
  target: string;
}

async function main() {
  if (!hasWrk()) {
    console.error('wrk is not installed (Debian: apt-get install wrk)');
    process.exit(2);
  }
  const options: MeasureOptions = {
    client: 'wrk',
    duration: Number(values.duration),
    connections: Number(values.connections),
    waitLoad: Number(values['wait-load']),
    waitMax: Number(values['wait-max']),
  };
  const mixed = { seconds: Number(values['mixed-duration']), connections: Number(values['mixed-connections']) };
  const databases = values.databases.split(',');
  if (
    !(options.duration >= 1) ||
    !Number.isInteger(options.connections) ||
    options.connections < 1 ||
    !(mixed.seconds >= 1) ||
    !Number.isInteger(mixed.connections) ||
    mixed.connections < 1 ||
    !databases.every((one) => one === 'postgresql' || one === 'pglite')
  ) {
    console.error(
      '--duration, --connections, --mixed-duration and --mixed-connections must be positive; --databases lists postgresql and/or pglite',
    );
    process.exit(2);
  }
  console.log(
    `Page and record API benchmark: ${cpus().length} CPUs, Node ${process.version}; wrk, one thread, ${options.connections} connections, ${options.duration} s per measurement in 1 s slices; mixed load ${mixed.seconds} s at ${mixed.connections} connections; 127.0.0.1 only`,
  );
  const reports: string[] = [];
  for (const database of databases) {
    const settings: DatabaseSettings =
      database === 'postgresql'
        ? { ...settingsFromEnv(), databaseUrl: await ensureDatabase(process.env.DATABASE_URL || DEFAULT_DATABASE_URL) }
        : {
            ...settingsFromEnv({
              ...process.env,
              DATABASE_URL: '',
              DATA_DIR: process.env.BENCH_DATA_DIR || '.data-bench-api',
            }),
          };
    const env = settings.databaseUrl
      ? { DATABASE_URL: settings.databaseUrl }
      : { DATABASE_URL: '', DATA_DIR: settings.dataDir };
    const where = settings.databaseUrl
      ? `PostgreSQL ${settings.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`
      : `PGlite in ${settings.dataDir}`;
    console.log(`\n== ${where}`);
    const kind = settings.databaseUrl ? 'postgresql' : 'pglite';
    const serverEnv = { ...env, NODE_ENV: 'production' };
    const only = values['storm-only']
      ? 'storm'
      : values['memory-only']
        ? 'memory'
        : values['contention-only']
          ? 'contention'
          : undefined;
    const lines = only ? [] : await benchOne(settings, serverEnv, options, mixed);
    if (!only || only === 'storm') lines.push(...(await benchStorm(settings, serverEnv, options)));
    if (!only || only === 'contention') lines.push(...(await benchContention(kind, settings, serverEnv, options)));
    if (!only || only === 'memory') lines.push(...(await benchMemory(kind, settings, env, mixed)));
    reports.push(`\n${where}`, ...lines);
  }
  console.log(reports.join('\n'));
}

/** The PostgreSQL database of url, created when the server lacks it. */
async function ensureDatabase(url: string): Promise<string> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      console.log(`Creating the database ${name}`);
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    }
  } finally {
    await client.end();
  }
  return url;
}

async function benchOne(
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
  mixed: { seconds: number; connections: number },
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  const rows: Row[] = [];
  const loads: string[] = [];
  const load = (what: string) => loads.push(`load average before ${what}: ${loadavg()[0].toFixed(2)}`);
  let mix: { rps: number; p50: number; p99: number; requests: number; failed: number } | undefined;

  const cached = await startServer(import.meta.filename, env);
  try {
    const csrf = await csrfToken(cached, cookie);
    const signedIn = { ...BROWSER, cookie };
    const targets: BenchTarget[] = [
      { name: 'bare trivial endpoint', path: TRIVIAL_PATH, headers: BROWSER },
      { name: 'trivial endpoint in the app', path: IN_APP_TRIVIAL_PATH, headers: BROWSER },
      { name: 'page / (guest, cached)', path: PAGES[0], headers: BROWSER },
      { name: 'locator warm', path: LOCATOR, headers: BROWSER },
      { name: 'getObjectInfo', path: OBJECT_INFO('Account'), headers: signedIn },
      { name: 'getRecord', path: RECORD(ACCOUNTS[0]), headers: signedIn },
      { name: 'getLayout', path: LAYOUT, headers: signedIn },
      { name: 'getRecordUi', path: RECORD_UI, headers: signedIn },
      { name: 'getRecord (read anew)', path: RECORD(ACCOUNTS[0]), headers: { ...signedIn, ...READ_ANEW } },
      { name: 'getRecordUi (read anew)', path: RECORD_UI, headers: { ...signedIn, ...READ_ANEW } },
    ];
    await warmUp(cached, targets, options);
    await waitForLoad(options);
    load('the cached measurements');
    rows.push(...withRatios(targets, await measure(cached.baseUrl, targets, options)));

    const requests = mixedRequests(cookie, csrf);
    for (const one of requests) await check(cached, one.path, one.headers, one.method, one.body);
    await runWrkMix(cached.baseUrl, MIX_WARM_SECONDS, mixed.connections, requests);
    await waitForLoad(options);
    load(`the mixed load (${mixed.connections} connections, ${mixed.seconds} s)`);
    const slice = await runWrkMix(cached.baseUrl, mixed.seconds, mixed.connections, requests);
    const latencies = ascending(slice.latencies);
    const at = (q: number) => percentile(latencies, q);
    mix = {
      rps: slice.requests / slice.seconds,
      p50: at(0.5),
      p99: at(0.99),
      requests: slice.requests,
      failed: slice.non2xx + slice.errors,
    };
    console.log(
      `  mixed load: ${mix.rps.toFixed(0)} req/s, p50 ${mix.p50.toFixed(2)} ms, p99 ${mix.p99.toFixed(2)} ms; ${mix.requests} requests, ${mix.failed} failed`,
    );
  } finally {
    await cached.stop();
  }

  const uncached = await startServer(import.meta.filename, { ...env, LOCATOR_CACHE: 'off', PAGE_CACHE: 'off' });
  try {
    const targets: BenchTarget[] = [
      { name: 'bare trivial endpoint (caches off)', path: TRIVIAL_PATH, headers: BROWSER },
      { name: 'page / (guest, rendered)', path: PAGES[0], headers: BROWSER },
      { name: 'locator cold', path: LOCATOR, headers: BROWSER },
    ];
    await warmUp(uncached, targets, options);
    // The mixed load before leaves the 1-minute load average high for longer than a minute: up to thrice as long.
    await waitForLoad({ ...options, waitMax: options.waitMax * 3 });
    load('the uncached measurements');
    rows.push(...withRatios(targets, await measure(uncached.baseUrl, targets, options)));
  } finally {
    await uncached.stop();
  }

  // Cold: no guest data kept between renders either, so that every render asks the API for everything.
  const cold = await startServer(import.meta.filename, { ...env, LOCATOR_CACHE: 'off', PAGE_CACHE: 'cold' });
  try {
    const targets: BenchTarget[] = [
      { name: 'bare trivial endpoint (cold)', path: TRIVIAL_PATH, headers: BROWSER },
      { name: 'page / (guest, rendered cold)', path: PAGES[0], headers: BROWSER },
    ];
    await warmUp(cold, targets, options);
    await waitForLoad(options);
    load('the cold page');
    rows.push(...withRatios(targets, await measure(cold.baseUrl, targets, options)));
  } finally {
    await cold.stop();
  }

  const lines = [...loads, `${'measurement'.padEnd(36)}   req/s   p50 ms   p99 ms  server CPU/req  / bare  target`];
  for (const { name, m, ratio, target } of rows) {
    lines.push(
      `${name.padEnd(36)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)} ${`${(ratio * 100).toFixed(0)} %`.padStart(7)}  ${target}`,
    );
  }
  if (mix) {
    // Beside the bare endpoint of the cached measurements (the first row), measured by the same server.
    const share = mix.rps / rows[0].m.rps;
    const met = mix.failed === 0 && mix.p99 <= MIXED_TARGET.p99 && share >= MIXED_TARGET.share;
    lines.push(
      `${'mixed load'.padEnd(36)} ${mix.rps.toFixed(0).padStart(7)} ${mix.p50.toFixed(2).padStart(8)} ${mix.p99.toFixed(2).padStart(8)} ${''.padStart(15)} ${`${(share * 100).toFixed(0)} %`.padStart(7)}  ` +
        `${mix.failed} failed of ${mix.requests}; target 0 failed, p99 ≤ ${MIXED_TARGET.p99} ms, ≥ ${MIXED_TARGET.share * 100} % of bare: ${met ? 'met' : 'missed'}`,
    );
  }
  return lines;
}

/**
 * The write storm: the guest page `/`, STORM_STATE's locator page and getContacts for it, each measured in
 * one-second slices without writes and under the writer at each of STORM_RATES, alternating, so that all meet
 * the same background load. Returns the report's lines.
 */
async function benchStorm(
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
): Promise<string[]> {
  const { cookie, stormIds } = await prepare(settings);
  if (stormIds.length === 0) throw new Error(`No representative of ${STORM_STATE.state} to update`);
  const { country, state } = STORM_STATE;
  const targets: BenchTarget[] = [
    { name: 'page /', path: '/', headers: BROWSER },
    {
      name: `locator page (${state})`,
      path: `/?${new URLSearchParams({ country, state })}`,
      headers: BROWSER,
    },
    { name: `getContacts (${state})`, path: locatorPath(country, state, BRANDS[0]), headers: BROWSER },
  ];
  const server = await startServer(import.meta.filename, env);
  const lines: string[] = [];
  try {
    const csrf = await csrfToken(server, cookie);
    const writeHeaders = { ...BROWSER, cookie, [CSRF_HEADER]: csrf, 'content-type': 'application/json' };
    const writer = new StormWriter(server, stormIds, writeHeaders);
    try {
      await warmUp(server, targets, options);
      // The writer's path is warmed up too: its first updates are slower.
      writer.rate = 10;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      writer.rate = 0;
      await waitForLoad(options);
      lines.push(`load average before the write storm: ${loadavg()[0].toFixed(2)}`);
      console.log(
        `\nWrite storm: ${stormIds.length} representatives of ${state} updated at ${STORM_RATES.join(', ')} a second; load average ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
      );
      const slices = targets.map(() => STORM_RATES.map((): Slice[] => []));
      const updatesBefore = writer.updates;
      for (let round = 0; round < options.duration; round++) {
        for (const [rateIndex, rate] of STORM_RATES.entries()) {
          writer.rate = rate;
          for (const [index, target] of targets.entries()) {
            slices[index][rateIndex].push(await runFor(options, server.baseUrl + target.path, 1, target.headers));
          }
        }
      }
      writer.rate = 0;
      const updates = writer.updates - updatesBefore;
      lines.push(
        `write storm on ${state}: ${updates} updates, ${writer.failed} failed; share = req/s under writes / req/s quiet`,
        `${'storm measurement'.padEnd(24)} ${STORM_RATES.map((rate) => `${rate ? `${rate}/s` : 'quiet'} req/s   p99 ms`.padStart(20)).join('')}  share 1/s  share 10/s  target at 10/s`,
      );
      for (const [index, target] of targets.entries()) {
        const figures = slices[index].map(summarize);
        const quiet = figures[0].rps;
        const shares = figures.map((figure) => figure.rps / quiet);
        const last = figures.length - 1;
        const met =
          shares[last] >= STORM_TARGET.share &&
          figures[last].p99 <= STORM_TARGET.p99 &&
          figures.every((f) => f.failed === 0);
        const failed = figures.reduce((sum, figure) => sum + figure.failed, 0);
        lines.push(
          `${target.name.padEnd(24)} ${figures.map((f) => `${f.rps.toFixed(0).padStart(11)} ${f.p99.toFixed(2).padStart(8)}`).join('')}  ${`${(shares[1] * 100).toFixed(0)} %`.padStart(9)}  ${`${(shares[last] * 100).toFixed(0)} %`.padStart(10)}  ` +
            `≥ ${STORM_TARGET.share * 100} %, p99 ≤ ${STORM_TARGET.p99} ms: ${met ? 'met' : 'missed'}${failed ? ` (${failed} failed)` : ''}`,
        );
        console.log(`  ${lines.at(-1)}`);
      }
    } finally {
      await writer.stop();
    }
  } finally {
    await server.stop();
  }
  return lines;
}

/**
 * CONTENTION_CONNECTIONS connections update one record for CONTENTION_SECONDS while `/` is measured beside them;
 * then `/` alone for as long, for comparison.
 */
async function benchContention(
  database: 'pglite' | 'postgresql',
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  const server = await startServer(import.meta.filename, env);
  try {
    const csrf = await csrfToken(server, cookie);
    const update: MixedRequest = {
      weight: 1,
      method: 'PATCH',
      path: `${UI_API}/records/${ACCOUNTS[1]}`,
      headers: { ...BROWSER, cookie, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { Description: 'Updated by the contention of npm run bench:api' } }),
    };
    const page: BenchTarget = { name: 'page /', path: '/', headers: BROWSER };
    await check(server, update.path, update.headers, update.method, update.body);
    await warmUp(server, [page], options);
    await runWrkMix(server.baseUrl, 3, CONTENTION_CONNECTIONS, [update]);
    await waitForLoad(options);
    const load = loadavg()[0].toFixed(2);
    const [updates, during] = await Promise.all([
      runWrkMix(server.baseUrl, CONTENTION_SECONDS, CONTENTION_CONNECTIONS, [update]),
      runFor(options, server.baseUrl + page.path, CONTENTION_SECONDS, page.headers),
    ]);
    const alone = await runFor(options, server.baseUrl + page.path, CONTENTION_SECONDS, page.headers);
    const [u, d, a] = [updates, during, alone].map((slice) => summarize([slice]));
    const failed = (slice: Slice) => (slice.errors ? `, ${slice.errors} errors or timeouts` : '');
    const updatesMet = u.p99 <= CONTENTION_TARGET.updateP99 && u.failed === 0;
    const pageMet = d.p99 <= CONTENTION_TARGET.pageP99 && d.failed === 0;
    const verdict = (met: boolean) => (database === 'pglite' ? (met ? 'met' : 'missed') : 'PGlite only');
    const lines = [
      `contention (load average ${load}): ${CONTENTION_CONNECTIONS} connections updating one record for ${CONTENTION_SECONDS} s, page / at ${options.connections} beside them`,
      `  updates:          ${u.rps.toFixed(0).padStart(7)} req/s, p99 ${u.p99.toFixed(1).padStart(7)} ms${failed(updates)} (${u.failed} failed)  target p99 ≤ ${CONTENTION_TARGET.updateP99} ms, none failed: ${verdict(updatesMet)}`,
      `  page / beside:    ${d.rps.toFixed(0).padStart(7)} req/s, p99 ${d.p99.toFixed(1).padStart(7)} ms${failed(during)}  target p99 ≤ ${CONTENTION_TARGET.pageP99} ms: ${verdict(pageMet)}`,
      `  page / alone:     ${a.rps.toFixed(0).padStart(7)} req/s, p99 ${a.p99.toFixed(1).padStart(7)} ms`,
    ];
    for (const line of lines) console.log(`  ${line}`);
    return lines;
  } finally {
    await server.stop();
  }
}

/** The req/s, p99 and failures of slices. */
function summarize(slices: Slice[]): { rps: number; p99: number; failed: number } {
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const p99 = percentile(ascending(slices.flatMap((slice) => slice.latencies)), 0.99);
  const failed = slices.reduce((sum, slice) => sum + slice.non2xx + slice.errors, 0);
  return { rps: requests / seconds, p99, failed };
}

/** Each measurement with its ratio to the first (the bare endpoint), and its target when the issue sets one. */
function withRatios(targets: BenchTarget[], measured: Measurement[]): Row[] {
  const bare = measured[0].rps;
  return measured.map((m, index) => {
    const name = targets[index].name;
    const ratio = m.rps / bare;
    const goal = RATIO_TARGETS[name];
    let target = '';
    if (goal !== undefined) target = `≥ ${goal * 100} %: ${ratio >= goal ? 'met' : 'missed'}`;
    if (name.startsWith('page / (guest, rendered)'))
      target = `≥ ${UNCACHED_PAGE_TARGET} req/s: ${m.rps >= UNCACHED_PAGE_TARGET ? 'met' : 'missed'}`;
    return { name, m, ratio, target };
  });
}

/**
 * The production server's memory (scripts/lib/server-memory.ts): RSS idle after its start, at its peak under the
 * mixed load (its warm-up and its measured run), and MEMORY_AFTER_SECONDS after the load.
 */
async function benchMemory(
  database: 'pglite' | 'postgresql',
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  mixed: { seconds: number; connections: number },
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  // The idle RSS of one start varies by tens of MB from one start to the next (on PGlite 256 to 318 MB in three
  // starts): the memory that threads freed while the server started and that malloc keeps. Its median over
  // IDLE_STARTS starts is the figure; the load runs on the last of them.
  const idleResident = async (server: BuiltServer) => {
    await new Promise((done) => setTimeout(done, MEMORY_IDLE_SECONDS * 1000));
    return residentBytes(server.pid);
  };
  const idles: number[] = [];
  for (let start = 1; start < IDLE_STARTS; start++) {
    const earlier = await startBuiltServer(env);
    try {
      idles.push(await idleResident(earlier));
    } finally {
      await earlier.stop();
    }
  }
  const server = await startBuiltServer(env);
  try {
    idles.push(await idleResident(server));
    const requests = mixedRequests(cookie, await csrfToken(server, cookie));
    for (const one of requests) await check(server, one.path, one.headers, one.method, one.body);
    const sampler = sampleResident(server.pid);
    await runWrkMix(server.baseUrl, MIX_WARM_SECONDS + mixed.seconds, mixed.connections, requests);
    const peak = sampler.stop();
    await new Promise((done) => setTimeout(done, MEMORY_AFTER_SECONDS * 1000));
    const after = residentBytes(server.pid);
    const lines = memoryLines(database, { idles, peak, after, afterSeconds: MEMORY_AFTER_SECONDS });
    for (const line of lines) console.log(`  ${line}`);
    return [`memory of dist/server/main.js (load average ${loadavg()[0].toFixed(2)}):`, ...lines];
  } finally {
    await server.stop();
  }
}

/** The mixed load's requests and their weights (out of 100). */
function mixedRequests(cookie: string, csrf: string): MixedRequest[] {
  const signedIn = { ...BROWSER, cookie };
  const filters: [string, string, string][] = [
    ['United States', 'Texas', BRANDS[0]],
    ['United States', 'California', BRANDS[1]],
    ['Canada', 'Ontario', BRANDS[2]],
    ['Germany', 'Bavaria', BRANDS[3]],
    ['United States', 'Ohio', BRANDS[4]],
  ];
  return [
    ...filters.map(([country, state, brand]): MixedRequest => ({
      weight: 6,
      method: 'GET',
      path: locatorPath(country, state, brand),
      headers: BROWSER,
    })),
    ...PAGES.map((path): MixedRequest => ({ weight: 10, method: 'GET', path, headers: BROWSER })),
    ...ACCOUNTS.map((id): MixedRequest => ({ weight: 9, method: 'GET', path: RECORD(id), headers: signedIn })),
    { weight: 3, method: 'GET', path: RECORD_UI, headers: signedIn },
    ...['Account', 'Contact', 'APT_Contact_Us__c'].map((object): MixedRequest => ({
      weight: 5,
      method: 'GET',
      path: OBJECT_INFO(object),
      headers: signedIn,
    })),
    ...ACCOUNTS.slice(0, 1).map((id): MixedRequest => ({
      weight: 5,
      method: 'PATCH',
      path: `${UI_API}/records/${id}`,
      headers: { ...signedIn, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { Description: 'Updated by the mixed load of npm run bench:api' } }),
    })),
  ];
}

/** Every target answers 200 before it is measured, then is warmed up (WARM_REQUESTS), so that nothing is measured cold. */
async function warmUp(server: Server, targets: BenchTarget[], options: MeasureOptions): Promise<void> {
  for (const target of targets) await check(server, target.path, target.headers ?? {});
  for (const target of targets) {
    let requests = 0;
    for (let second = 0; second < WARM_MAX_SECONDS && requests < WARM_REQUESTS; second++) {
      requests += (await runLoad('wrk', server.baseUrl + target.path, 1, options.connections, target.headers)).requests;
    }
  }
}

async function check(
  server: Server,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<void> {
  const response = await fetch(server.baseUrl + path, { method, headers, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
}

async function csrfToken(server: Server, cookie: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${UI_API}/session/csrf`, { headers: { cookie } });
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Opens the database (migrating and seeding the demo data on a first start), signs the administrator in, and
 * finds the storm's representatives: those of STORM_STATE that are not the default contact.
 */
async function prepare(settings: DatabaseSettings): Promise<{ cookie: string; stormIds: string[] }> {
  const { openDatabase } = await import('../server/bootstrap.ts');
  try {
    const db = await openDatabase(settings);
    try {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields->>'APT_Country__c' = $1
           AND fields->>'APT_Primary_State__c' = $2 AND fields->>'APT_Default_Contact__c' IS DISTINCT FROM 'true'
         ORDER BY id LIMIT 20`,
        [STORM_STATE.country, STORM_STATE.state],
      );
      return { cookie: await adminSessionCookie(db), stormIds: rows.map((row) => row.id) };
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(`${error.message}\nStop that server, or set BENCH_DATA_DIR to another directory.`);
      process.exit(1);
    }
    throw error;
  }
}
