/**
 * Benchmarks search and lookups: npm run bench:search [-- --records 1000000 --duration 10 --connections 1,10]
 *
 * Seeds (or reuses) Contact Us records in the database the environment names, as bench:lists does (DATABASE_URL,
 * or PGlite in DATA_DIR, default .data-bench: one seeding serves the benchmarks), then runs the app as a child
 * server signed in as the administrator and measures, beside a trivial endpoint of the same server, in
 * alternating one-second slices (scripts/lib/bench-server.ts), with one connection and with ten:
 *   - a keyword search of the object for a city (a term a few hundred records hold), by relevance;
 *   - a keyword search for a trade every tenth record holds (automation), by relevance: the worst case of ranking;
 *   - a lookup's type-ahead over the records' names (Case.APT_Contact_Us__c, names starting CU-0042);
 *   - a lookup's full search for the city.
 * Targets on PostgreSQL: p99 at most 50 ms for a search, 30 ms for a type-ahead.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { UI_API_PATH as UI_API } from '../common/platform.ts';
import type { Database } from '../server/db/connection.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import {
  adminSessionCookie,
  measure,
  runFor,
  serveForBench,
  startServer,
  topUpContacts,
  TRIVIAL_PATH,
  waitForLoad,
  type BenchTarget,
  type MeasureOptions,
} from './lib/bench-server.ts';
import { hasWrk } from './lib/load-generator.ts';

const OBJECT = 'APT_Contact_Us__c';
const CITY = 'Austin';
const BROAD = 'automation';
const PREFIX = 'CU-0042';

interface SearchTarget extends BenchTarget {
  /** The p99 to meet on PostgreSQL, in ms. */
  goal: number;
}

const post = (body: unknown) => ({ method: 'POST' as const, body: JSON.stringify(body) });
const TARGETS: SearchTarget[] = [
  {
    name: `keyword search "${CITY}"`,
    path: `${UI_API}/search/results/keyword?q=${CITY}&objectApiName=${OBJECT}`,
    request: post({}),
    goal: 50,
  },
  {
    name: `keyword search "${BROAD}" (a tenth)`,
    path: `${UI_API}/search/results/keyword?q=${BROAD}&objectApiName=${OBJECT}`,
    request: post({}),
    goal: 50,
  },
  {
    name: `type-ahead lookup "${PREFIX}"`,
    path: `${UI_API}/lookups/Case/${OBJECT}?searchType=TypeAhead&q=${PREFIX}`,
    request: post({}),
    goal: 30,
  },
  {
    name: `search lookup "${CITY}"`,
    path: `${UI_API}/lookups/Case/${OBJECT}?searchType=Search&q=${CITY}`,
    request: post({}),
    goal: 50,
  },
  // The duplicate rules' predupe check (a record's likely duplicates before it is saved) joins here.
];

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1,10' },
    'wait-load': { type: 'string', default: '1.5' },
    'wait-max': { type: 'string', default: '60' },
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
  const target = Number(values.records);
  const client = values.client ?? (hasWrk() ? 'wrk' : 'autocannon');
  if ((client !== 'wrk' && client !== 'autocannon') || (client === 'wrk' && !hasWrk())) {
    console.error('--client must be wrk (installed: apt-get install wrk) or autocannon');
    process.exit(2);
  }
  const levels = values.connections.split(',').map(Number);
  const options: MeasureOptions = {
    client,
    duration: Number(values.duration),
    connections: levels[0],
    waitLoad: Number(values['wait-load']),
    waitMax: Number(values['wait-max']),
  };
  if (
    !Number.isSafeInteger(target) ||
    target < 2000 ||
    !(options.duration >= 1) ||
    !levels.every((level) => Number.isInteger(level) && level >= 1)
  ) {
    console.error('--records must be at least 2000; --duration and --connections positive');
    process.exit(2);
  }
  const settings = benchSettings();
  const database = settings.databaseUrl
    ? `PostgreSQL ${settings.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`
    : `PGlite in ${settings.dataDir}`;
  console.log(`Search benchmark: ${database}, ${target} records of ${OBJECT}`);
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${client === 'wrk' ? 'wrk, one thread' : 'autocannon'}, ${levels.join(' and ')} connections, ${options.duration} s per measurement in 1 s slices, 127.0.0.1 only`,
  );
  const cookie = await prepare(settings, target);
  const server = await startServer(import.meta.filename, { DATA_DIR: settings.dataDir, DEMO_CONTACTS: '0' });
  try {
    // Writes (POST) carry the session's CSRF token and the page's origin, as the platform's clients do.
    const csrf = await fetch(`${server.baseUrl}${UI_API}/session/csrf`, { headers: { cookie } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const headers = { cookie, 'X-CSRF-Token': csrfToken, Origin: server.baseUrl };
    const targets = TARGETS.map((one) => ({ ...one, headers }));
    for (const one of targets) await check(server.baseUrl, one);
    await runFor(options, server.baseUrl + targets[0].path, 2, headers, targets[0].request);
    const tables: string[] = [];
    for (const connections of levels) {
      const level = { ...options, connections };
      await waitForLoad(level);
      const measured = await measure(
        server.baseUrl,
        [{ name: 'trivial endpoint', path: TRIVIAL_PATH }, ...targets],
        level,
      );
      tables.push(
        '',
        `${connections} connection${connections === 1 ? '' : 's'}, load average ${loadavg()[0].toFixed(2)} after`,
      );
      tables.push(`${'measurement'.padEnd(40)}   req/s   p50 ms   p99 ms  server CPU/req  target p99`);
      for (const [index, m] of measured.entries()) {
        const one = index === 0 ? null : TARGETS[index - 1];
        const met = !settings.databaseUrl || !one ? '' : m.p99 <= one.goal ? ' met' : ' missed';
        tables.push(
          `${(one?.name ?? 'trivial endpoint').padEnd(40)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)}  ${one ? `≤ ${one.goal} ms` : ''}${met}`,
        );
      }
    }
    console.log(tables.join('\n'));
  } finally {
    await server.stop();
  }
}

/** Opens the database (migrating it), tops the records up and gives the administrator a session; returns its cookie. */
async function prepare(settings: DatabaseSettings, target: number): Promise<string> {
  const { openDatabase } = await import('../server/bootstrap.ts');
  let db: Database;
  try {
    db = await openDatabase(settings);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(`${error.message}\nStop that server, or set DATA_DIR to another directory.`);
      process.exit(1);
    }
    throw error;
  }
  try {
    await topUpContacts(db, target);
    return await adminSessionCookie(db);
  } finally {
    await db.close();
  }
}

/** One call, checked: what it found, with the time it took. */
async function check(baseUrl: string, target: BenchTarget): Promise<void> {
  const began = performance.now();
  const response = await fetch(baseUrl + target.path, {
    method: target.request?.method,
    body: target.request?.body,
    headers: { ...target.headers, ...(target.request ? { 'Content-Type': 'application/json' } : {}) },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${target.path} answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as {
    keywordSearchResult?: { count: number; nextPageToken: string | null };
    lookupResults?: Record<string, { count: number; nextPageToken: string | null }>;
  };
  const page = body.keywordSearchResult ?? Object.values(body.lookupResults ?? {})[0];
  console.log(
    `  ${target.name}: ${page.count} records${page.nextPageToken ? ', more follow' : ''}, ${(performance.now() - began).toFixed(0)} ms cold`,
  );
}
