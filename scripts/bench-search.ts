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
import { UI_API_PATH as UI_API } from '../common/platform.ts';
import type { DatabaseSettings } from '../server/db/settings.ts';
import {
  adminSessionCookie,
  runFor,
  serveForBench,
  startServer,
  topUpContacts,
  type BenchTarget,
} from './lib/bench-server.ts';
import {
  measureLevels,
  openBenchDatabase,
  printHeading,
  recordBenchArgs,
  type GoalTarget,
} from './lib/record-bench.ts';

const OBJECT = 'APT_Contact_Us__c';
const CITY = 'Austin';
const BROAD = 'automation';
const PREFIX = 'CU-0042';

const post = (body: unknown) => ({ method: 'POST' as const, body: JSON.stringify(body) });
const TARGETS: GoalTarget[] = [
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

const bench = recordBenchArgs();
if (bench.serve) await serveForBench(bench.settings);
else await main();

async function main() {
  printHeading('Search benchmark', bench);
  console.log(`${bench.records} records of ${OBJECT}`);
  const cookie = await prepare(bench.settings, bench.records);
  const server = await startServer(import.meta.filename, { DATA_DIR: bench.settings.dataDir, DEMO_CONTACTS: '0' });
  try {
    // Writes (POST) carry the session's CSRF token and the page's origin, as the platform's clients do.
    const csrf = await fetch(`${server.baseUrl}${UI_API}/session/csrf`, { headers: { cookie } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const headers = { cookie, 'X-CSRF-Token': csrfToken, Origin: server.baseUrl };
    const targets = TARGETS.map((one) => ({ ...one, headers }));
    for (const one of targets) await check(server.baseUrl, one);
    await runFor(bench.options, server.baseUrl + targets[0].path, 2, headers, targets[0].request);
    console.log(await measureLevels(server.baseUrl, targets, bench));
  } finally {
    await server.stop();
  }
}

/** Opens the database (migrating it), tops the records up and gives the administrator a session; returns its cookie. */
async function prepare(settings: DatabaseSettings, target: number): Promise<string> {
  const db = await openBenchDatabase(settings);
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
