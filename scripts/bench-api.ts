/**
 * Benchmarks the page and the record API: npm run bench:api [-- --duration 5 --connections 8 --mixed-duration 60
 * --mixed-connections 64 --databases postgresql,pglite --storm-only --memory-only --contention-only --mixed-only --cold-only]
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
 *     map: what no change of the page's own data evicts; --cold-only: this alone);
 *   - then, with the caches on, a mixed load at 64 connections: the locator (30 %), guest pages (20 %), records
 *     (30 %), object info (15 %) and writes (5 %: updateRecord of the demo Accounts, which no page shows);
 *     (--mixed-only: the mixed load taken apart instead, beside the bare endpoint: as sent, with its writes sent to a
 *     record it does not read, and without its writes; scripts/lib/bench-api-mixed.ts);
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
 *
 * The write storm, contention and memory are in scripts/lib/bench-api-storm.ts, bench-api-contention.ts and
 * bench-api-memory.ts; what the scenarios share (requests, the prepared database, warm-up) in bench-api-shared.ts.
 */
import { loadavg, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { UI_API_PATH as UI_API } from '../common/platform.ts';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import { BRANDS } from '../server/storefront/demo-contacts.ts';
import {
  IN_APP_TRIVIAL_PATH,
  measure,
  serveForBench,
  sliceTotals,
  TRIVIAL_PATH,
  waitForLoad,
  type BenchTarget,
  type MeasureOptions,
  type Measurement,
} from './lib/bench-server.ts';
import { hasWrk, runWrkMix } from './lib/load-generator.ts';
import {
  ACCOUNTS,
  BROWSER,
  check,
  csrfToken,
  locatorPath,
  MIX_WARM_SECONDS,
  mixedRequests,
  OBJECT_INFO,
  PAGES,
  prepare,
  RECORD,
  RECORD_UI,
  startSite,
  warmUp,
} from './lib/bench-api-shared.ts';
import { benchContention } from './lib/bench-api-contention.ts';
import { benchMemory } from './lib/bench-api-memory.ts';
import { benchMixedParts } from './lib/bench-api-mixed.ts';
import { benchStorm } from './lib/bench-api-storm.ts';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/bench_api';
const LOCATOR = locatorPath('United States', 'Texas', BRANDS[0]);
const LAYOUT = `${UI_API}/layout/Account?layoutType=Full&mode=View`;
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
/** The row of the page rendered cold. */
const COLD_PAGE = 'page / (guest, rendered cold)';
/** A cold render costs at most so much server CPU (µs), on either database. */
const COLD_RENDER_TARGET = 5_000;
/** The mixed load's target: no failure, p99 at most 100 ms, and at least a quarter of the bare endpoint's req/s. */
const MIXED_TARGET = { p99: 100, share: 0.25 };

/** The scenarios that an --<name>-only option runs alone. */
const ONLY_SCENARIOS = ['storm', 'memory', 'contention', 'mixed', 'cold'] as const;

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
    'mixed-only': { type: 'boolean', default: false },
    'cold-only': { type: 'boolean', default: false },
  },
});

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
  // One scenario alone, when an --<name>-only option asks for it (the first of them, if several do).
  const only = ONLY_SCENARIOS.find((name) => values[`${name}-only`]);
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
    const lines = only ? [] : await benchOne(settings, serverEnv, options, mixed);
    if (only === 'mixed') lines.push(...(await benchMixedParts(settings, serverEnv, options, mixed)));
    if (only === 'cold') {
      const loads: string[] = [];
      const rows = await benchCold(serverEnv, options, (what) => loads.push(loadAverageBefore(what)));
      lines.push(...loads, ...table(rows));
    }
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
  const load = (what: string) => loads.push(loadAverageBefore(what));
  let mix: { rps: number; p50: number; p99: number; requests: number; failed: number } | undefined;

  const cached = await startSite(env);
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
    const {
      rps,
      p50,
      p99,
      requests: sent,
      failed,
    } = sliceTotals([await runWrkMix(cached.baseUrl, mixed.seconds, mixed.connections, requests)]);
    mix = { rps, p50, p99, requests: sent, failed };
    console.log(
      `  mixed load: ${mix.rps.toFixed(0)} req/s, p50 ${mix.p50.toFixed(2)} ms, p99 ${mix.p99.toFixed(2)} ms; ${mix.requests} requests, ${mix.failed} failed`,
    );
  } finally {
    await cached.stop();
  }

  const uncached = await startSite({ ...env, LOCATOR_CACHE: 'off', PAGE_CACHE: 'off' });
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

  rows.push(...(await benchCold(env, options, load)));

  const lines = [...loads, ...table(rows)];
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

/** The line that gives the 1-minute load average before a group of measurements. */
function loadAverageBefore(what: string): string {
  return `load average before ${what}: ${loadavg()[0].toFixed(2)}`;
}

/** The page rendered cold, beside the bare endpoint of the same server. */
async function benchCold(
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
  load: (what: string) => void,
): Promise<Row[]> {
  // Cold: no guest data kept between renders either, so that every render asks the API for everything.
  const cold = await startSite({ ...env, LOCATOR_CACHE: 'off', PAGE_CACHE: 'cold' });
  try {
    const targets: BenchTarget[] = [
      { name: 'bare trivial endpoint (cold)', path: TRIVIAL_PATH, headers: BROWSER },
      { name: COLD_PAGE, path: PAGES[0], headers: BROWSER },
    ];
    await warmUp(cold, targets, options);
    await waitForLoad(options);
    load('the cold page');
    return withRatios(targets, await measure(cold.baseUrl, targets, options));
  } finally {
    await cold.stop();
  }
}

/** The rows as a table, with their header. */
function table(rows: Row[]): string[] {
  const lines = [`${'measurement'.padEnd(36)}   req/s   p50 ms   p99 ms  server CPU/req  / bare  target`];
  for (const { name, m, ratio, target } of rows) {
    lines.push(
      `${name.padEnd(36)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)} ${`${(ratio * 100).toFixed(0)} %`.padStart(7)}  ${target}`,
    );
  }
  return lines;
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
    if (name === COLD_PAGE)
      target = `CPU ≤ ${COLD_RENDER_TARGET} µs: ${m.cpuPerRequest <= COLD_RENDER_TARGET ? 'met' : 'missed'}`;
    return { name, m, ratio, target };
  });
}
