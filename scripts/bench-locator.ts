/**
 * Benchmarks the contact locator: npm run bench:locator [-- --contacts 1000000 --duration 10 --connections 10]
 *
 * Seeds (or reuses) the contacts in the database the environment names: DATABASE_URL, or PGlite in
 * DATA_DIR (default .data-bench, so that the dev database is not touched). Then runs the app as a child
 * server on 127.0.0.1 and measures it, every measurement bounded in time, with wrk when it is installed
 * (Debian: apt-get install wrk), else with autocannon (--client chooses). The load generator shares the
 * machine with the server: wrk, written in C, takes little of it, where autocannon's JavaScript HTTP parser
 * takes a share that grows with each answer's header lines, and so its figures say as much about autocannon
 * as about the server.
 *   - getContacts for one brand + country + state, cold (a server with LOCATOR_CACHE=off: every call
 *     queries the database);
 *   - the same call warm (answered from the result cache), and a trivial Hono endpoint in the same server,
 *     the ceiling of what any answer can reach here. These run in alternating one-second slices, so that
 *     all meet the same background load, and the ratio is printed. The warm call is measured as browsers
 *     make it (Accept-Encoding: gzip, so the cached answer goes out gzipped) and without Accept-Encoding.
 *     A warm call is answered before routing, before routing, the gate and the middleware chain
 *     (cachedAnswerFront in server/routes/storefront.ts); the figures say how many were. Also a trivial
 *     endpoint inside the app, behind the gate every other answer passes (security headers, the caller from
 *     the session cookie), so that the cost of that way shows.
 * Before each measurement it waits (at most --wait-max seconds) for the 1-minute load average to fall below
 * --wait-load, and prints it: other work on the machine skews the figures.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import {
  IN_APP_TRIVIAL_PATH,
  runFor as run,
  serveForBench,
  serverStats,
  sliceTotals,
  startServer,
  topUpContacts,
  TRIVIAL_PATH,
  waitForLoad,
  type BenchTarget,
  type MeasureOptions as Options,
} from './lib/bench-server.ts';
import { openBenchDatabase } from './lib/record-bench.ts';
import { hasWrk, type Slice } from './lib/load-generator.ts';

const FILTER = { country: 'United States', state: 'Texas', brands: ['Arcline'], lastRecordId: null };
const CONTACTS_PATH = `/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${encodeURIComponent(JSON.stringify(FILTER))}`;
/** What every browser sends: cached answers are then served gzipped. */
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    'wait-load': { type: 'string', default: '1.0' },
    'wait-max': { type: 'string', default: '120' },
    client: { type: 'string' },
    serve: { type: 'boolean', default: false },
  },
});

function benchSettings(): DatabaseSettings {
  return { ...settingsFromEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR || '.data-bench' }), demoContacts: 0 };
}

if (values.serve) await serveForBench(benchSettings());
else await main();

async function main() {
  const target = Number(values.contacts);
  const client = values.client ?? (hasWrk() ? 'wrk' : 'autocannon');
  if (client !== 'wrk' && client !== 'autocannon') {
    console.error('--client must be wrk or autocannon');
    process.exit(2);
  }
  if (client === 'wrk' && !hasWrk()) {
    console.error('wrk is not installed (Debian: apt-get install wrk); or run with --client autocannon');
    process.exit(2);
  }
  const options: Options = {
    client,
    duration: Number(values.duration),
    connections: Number(values.connections),
    waitLoad: Number(values['wait-load']),
    waitMax: Number(values['wait-max']),
  };
  if (
    !Number.isSafeInteger(target) ||
    target < 1 ||
    !(options.duration >= 1) ||
    !Number.isInteger(options.connections) ||
    options.connections < 1 ||
    !(options.waitLoad > 0) ||
    !(options.waitMax >= 0)
  ) {
    console.error(
      '--contacts, --duration and --connections must be positive numbers; --wait-load positive, --wait-max at least 0',
    );
    process.exit(2);
  }
  const settings = benchSettings();
  console.log(
    `Contact locator benchmark: ${settings.databaseUrl ? `PostgreSQL ${redact(settings.databaseUrl)}` : `PGlite in ${settings.dataDir}`}`,
  );
  if (values.client === undefined && client === 'autocannon')
    console.log(
      'wrk is not installed (Debian: apt-get install wrk): measuring with autocannon, whose own cost on these cores lowers the figures',
    );
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${client === 'wrk' ? 'wrk, one thread' : 'autocannon'}, ${options.connections} connections, ${options.duration} s per measurement, 127.0.0.1 only`,
  );
  console.log(
    'Rate limits off in the measured server (publicRequestsPerMinute: 0); the body-size limit and security headers stay on',
  );

  const expected = await prepare(settings, target);
  console.log(
    `Filter: ${FILTER.country} / ${FILTER.state} / ${FILTER.brands.join(', ')}: ${expected} of the ${target} contacts match`,
  );

  const results: [string, Measurement][] = [];
  let ratio = NaN;
  let plainRatio = NaN;
  let inAppRatio = NaN;
  const cold = await startLocatorServer({ LOCATOR_CACHE: 'off' });
  try {
    const probe = await check(cold.baseUrl, expected);
    console.log(`An answer: ${probe.contacts} contacts (the first chunk) and the total, ${probe.bytes} bytes`);
    await run(options, cold.baseUrl + CONTACTS_PATH, 2);
    await waitForLoad(options);
    results.push([
      'getContacts cold (LOCATOR_CACHE=off)',
      await measure(cold.baseUrl, [{ name: 'getContacts cold', path: CONTACTS_PATH }], options).then(([m]) => m),
    ]);
  } finally {
    await cold.stop();
  }
  const warm = await startLocatorServer({});
  try {
    await check(warm.baseUrl, expected);
    await run(options, warm.baseUrl + TRIVIAL_PATH, 2);
    await run(options, warm.baseUrl + CONTACTS_PATH, 2);
    await waitForLoad(options);
    const [trivial, inApp, cached, plain] = await measure(
      warm.baseUrl,
      [
        { name: 'trivial endpoint', path: TRIVIAL_PATH, headers: BROWSER_HEADERS },
        { name: 'trivial endpoint in the app', path: IN_APP_TRIVIAL_PATH, headers: BROWSER_HEADERS },
        { name: 'getContacts warm, gzip accepted', path: CONTACTS_PATH, headers: BROWSER_HEADERS },
        { name: 'getContacts warm, no Accept-Encoding', path: CONTACTS_PATH },
      ],
      options,
    );
    results.push(
      ['trivial Hono endpoint', trivial],
      ['trivial endpoint in the app', inApp],
      ['getContacts warm (gzip accepted)', cached],
      ['getContacts warm (no Accept-Encoding)', plain],
    );
    ratio = cached.rps / trivial.rps;
    plainRatio = plain.rps / trivial.rps;
    inAppRatio = cached.rps / inApp.rps;
  } finally {
    await warm.stop();
  }

  console.log('');
  console.log(`${'measurement'.padEnd(38)}   req/s   p50 ms   p99 ms  server CPU/req  load1 before`);
  for (const [name, m] of results) {
    console.log(
      `${name.padEnd(38)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)}  ${m.load.toFixed(2)}`,
    );
  }
  console.log(
    `warm / trivial throughput: ${(ratio * 100).toFixed(1)} % as browsers ask (Accept-Encoding: gzip); ${(plainRatio * 100).toFixed(1)} % without Accept-Encoding`,
  );
  console.log(`warm / trivial endpoint in the app (behind the same gate): ${(inAppRatio * 100).toFixed(1)} %`);
}

/**
 * Opens the database (migrating it), tops the contacts up and makes index-only scans possible (topUpContacts:
 * PGlite has no autovacuum, and PostgreSQL's may be off or late); the expected count.
 */
async function prepare(settings: DatabaseSettings, target: number): Promise<number> {
  const db = await openBenchDatabase(settings);
  try {
    await topUpContacts(db, target);
    // The count the answers must give, counted over the stored fields rather than the locator's own columns.
    const { rows: counted } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM record WHERE object_api_name = 'APT_Contact_Us__c'
       AND fields ->> 'APT_Country__c' = $1 AND fields ->> 'APT_Primary_State__c' = $2
       AND string_to_array(fields ->> 'APT_Brand__c', ';') && $3::text[]`,
      [FILTER.country, FILTER.state, FILTER.brands],
    );
    return counted[0].n;
  } finally {
    await db.close();
  }
}

/** The app as a child process (its own CPU, as in production), on 127.0.0.1 at a free port. */
function startLocatorServer(env: Record<string, string>) {
  return startServer(import.meta.filename, { ...env, DATA_DIR: benchSettings().dataDir, DEMO_CONTACTS: '0' });
}

/** One call, checked: the answer must carry the exact count. */
async function check(baseUrl: string, expected: number): Promise<{ contacts: number; bytes: number }> {
  const response = await fetch(baseUrl + CONTACTS_PATH);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`getContacts answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { contacts: unknown[]; totalRecords: number };
  if (body.totalRecords !== expected)
    throw new Error(`getContacts counted ${body.totalRecords} contacts, not ${expected}`);
  return { contacts: body.contacts.length, bytes: Buffer.byteLength(text) };
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  load: number;
}

/**
 * Measures each target for options.duration seconds; several in alternating one-second slices, so that
 * all meet the same background load. Also the server's CPU time per request, which that load skews less.
 */
async function measure(baseUrl: string, targets: BenchTarget[], options: Options): Promise<Measurement[]> {
  const load = loadavg()[0];
  console.log(
    `\nMeasuring ${targets.map((t) => t.name).join(' and ')}${targets.length > 1 ? ', alternating' : ''}: load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const slices = targets.map((): Slice[] => []);
  const cpu = targets.map(() => 0);
  const cache = targets.map(() => ({ hits: 0, replayed: 0, misses: 0 }));
  const sliceSeconds = targets.length > 1 ? 1 : options.duration;
  for (let round = 0; round < options.duration / sliceSeconds; round++) {
    for (const [index, target] of targets.entries()) {
      const before = await serverStats(baseUrl);
      slices[index].push(await run(options, baseUrl + target.path, sliceSeconds, target.headers));
      const after = await serverStats(baseUrl);
      cpu[index] += after.cpuMicros - before.cpuMicros;
      cache[index].hits += after.hits - before.hits;
      cache[index].replayed += after.replayed - before.replayed;
      cache[index].misses += after.misses - before.misses;
    }
  }
  return targets.map((target, index) => {
    const { requests, rps, p50, p99, non2xx, errors } = sliceTotals(slices[index]);
    const m: Measurement = { rps, p50, p99, cpuPerRequest: cpu[index] / requests, load };
    const cached =
      target.path === TRIVIAL_PATH || target.path === IN_APP_TRIVIAL_PATH
        ? ''
        : `; result cache: ${cache[index].hits} hits (${cache[index].replayed} before routing), ${cache[index].misses} computed`;
    console.log(
      `  ${target.name}: ${m.rps.toFixed(0)} req/s, latency p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms, ` +
        `server CPU ${m.cpuPerRequest.toFixed(0)} µs/request; ${requests} requests, ${non2xx} not 2xx, ${errors} errors${cached}`,
    );
    return m;
  });
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
