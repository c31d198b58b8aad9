/**
 * Benchmarks the list engine: npm run bench:lists [-- --records 1000000 --duration 10 --connections 1,10]
 *
 * Seeds (or reuses) Contact Us records in the database the environment names: DATABASE_URL, or PGlite in
 * DATA_DIR (default .data-bench, the locator bench's, so that one seeding serves both). Seeding drops the
 * list views' indexes first and builds them again after (faster than keeping them up to date row by row).
 * Then it runs the app as a child server on 127.0.0.1, signed in as the administrator (a session written
 * into the database), and measures, every measurement bounded in time, with wrk when it is installed, else
 * with autocannon (--client chooses), in alternating one-second slices so that all meet the same background
 * load, beside a trivial endpoint of the same server, at each number of connections asked for (one client
 * alone: the latency of a call; ten: the server saturated, where latency is mostly waiting in line):
 *   - the All view sorted by name: the first page, and the page at offset 1950;
 *   - an eq filter on a picklist (where, on top of the All view);
 *   - a range of a date (a week of CreatedDate);
 *   - a searchTerm over the view's searchable columns;
 *   - the MRU list (a few hundred recently used records).
 * After each slice it waits until the server's database has answered everything queued (PGlite answers one
 * query at a time), so that one slice's backlog does not fall into the next. Targets on PostgreSQL: p99 at
 * most 25 ms sorted or filtered, 60 ms with a searchTerm.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Database } from '../server/db/connection.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import { makeId } from '../server/platform/ids.ts';
import { ADMIN_USER_ID } from '../server/platform/principal.ts';
import { CONTACT_US_KEY_PREFIX } from '../server/storefront/demo-contacts.ts';
import {
  adminSessionCookie,
  measure,
  runFor as run,
  serveForBench,
  startServer,
  topUpContacts,
  TRIVIAL_PATH,
  waitForLoad,
  type MeasureOptions as Options,
} from './lib/bench-server.ts';
import { hasWrk } from './lib/load-generator.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/services/data/v65.0/ui-api/list-records/${OBJECT}/AllContactUs`;
const where = (filter: string) => `where=${encodeURIComponent(filter)}`;
const SEARCH_TERM = 'Austin';
const TARGETS = [
  { name: 'All by name, first page', path: `${LIST}?pageSize=50` },
  { name: 'All by name, offset 1950', path: `${LIST}?pageSize=50&pageToken=1950` },
  { name: 'eq on a picklist (Country)', path: `${LIST}?pageSize=50&${where('{ APT_Country__c: { eq: "Canada" } }')}` },
  // Newest first: in the seeded data names follow creation order, so a walk of the name index would pass a
  // fifth of the object before it met the week (the planner assumes matches spread evenly).
  {
    name: 'range of a date (a week), newest first',
    path: `${LIST}?pageSize=50&sortBy=-CreatedDate&${where('{ CreatedDate: { gte: "2025-06-01", lt: "2025-06-08" } }')}`,
  },
  { name: `searchTerm "${SEARCH_TERM}"`, path: `${LIST}?pageSize=50&searchTerm=${SEARCH_TERM}`, search: true },
  { name: 'MRU list', path: `/services/data/v65.0/ui-api/mru-list-records/${OBJECT}?pageSize=50` },
];
/** Records in the bench user's MRU list. */
const MRU_RECORDS = 300;

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
  const options: Options = {
    client,
    duration: Number(values.duration),
    connections: levels[0],
    waitLoad: Number(values['wait-load']),
    waitMax: Number(values['wait-max']),
  };
  if (!Number.isSafeInteger(target) || target < 2000 || !(options.duration >= 1) || !levels.every((level) => Number.isInteger(level) && level >= 1)) {
    console.error('--records must be at least 2000; --duration and --connections positive');
    process.exit(2);
  }
  const settings = benchSettings();
  const database = settings.databaseUrl ? `PostgreSQL ${settings.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}` : `PGlite in ${settings.dataDir}`;
  console.log(`List engine benchmark: ${database}`);
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${client === 'wrk' ? 'wrk, one thread' : 'autocannon'}, ${levels.join(' and ')} connections, ${options.duration} s per measurement in 1 s slices, 127.0.0.1 only`,
  );
  const cookie = await prepare(settings, target);
  const server = await startServer(import.meta.filename, { DATA_DIR: benchSettings().dataDir, DEMO_CONTACTS: '0' });
  try {
    const headers = { cookie };
    for (const one of TARGETS) await check(server.baseUrl, one.path, headers);
    await run(options, server.baseUrl + TARGETS[0].path, 2, headers);
    const tables: string[] = [];
    for (const connections of levels) {
      const level = { ...options, connections };
      await waitForLoad(level);
      const measured = await measure(server.baseUrl, [{ name: 'trivial endpoint', path: TRIVIAL_PATH }, ...TARGETS.map((one) => ({ ...one, headers }))], level);
      tables.push('', `${connections} connection${connections === 1 ? '' : 's'}, load average ${loadavg()[0].toFixed(2)} after`);
      tables.push(`${'measurement'.padEnd(40)}   req/s   p50 ms   p99 ms  server CPU/req  target p99`);
      for (const [index, m] of measured.entries()) {
        const goal = index === 0 ? '' : TARGETS[index - 1].search ? '≤ 60 ms' : '≤ 25 ms';
        const name = index === 0 ? 'trivial endpoint' : TARGETS[index - 1].name;
        const met = !settings.databaseUrl || index === 0 ? '' : m.p99 <= (TARGETS[index - 1].search ? 60 : 25) ? ' met' : ' missed';
        tables.push(
          `${name.padEnd(40)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)}  ${goal}${met}`,
        );
      }
    }
    console.log(tables.join('\n'));
  } finally {
    await server.stop();
  }
}

/**
 * Opens the database (migrating it, loading the list views and their indexes), tops the records up, gives the
 * administrator an MRU list and a session; returns the session's cookie.
 */
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
    const start = await topUpContacts(db, target);
    // The administrator used a few hundred records, spread over the object, most recent first.
    await db.query('DELETE FROM mru_record WHERE user_id = $1 AND object_api_name = $2', [ADMIN_USER_ID, OBJECT]);
    const step = Math.floor(Math.max(start, target) / MRU_RECORDS);
    const used = Array.from({ length: MRU_RECORDS }, (_, index) => makeId(CONTACT_US_KEY_PREFIX, 1 + index * step));
    await db.query(
      `INSERT INTO mru_record (user_id, record_id, object_api_name, used_at)
       SELECT $1, id, $2, now() - n * interval '1 minute' FROM unnest($3::text[]) WITH ORDINALITY AS used(id, n)`,
      [ADMIN_USER_ID, OBJECT, used],
    );
    return await adminSessionCookie(db);
  } finally {
    await db.close();
  }
}

/** One call, checked: a page of records, with the time it took. */
async function check(baseUrl: string, path: string, headers: Record<string, string>): Promise<void> {
  const began = performance.now();
  const response = await fetch(baseUrl + path, { headers });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { count: number; nextPageToken: string | null };
  console.log(
    `  ${decodeURIComponent(path.replace(/^.*ui-api\//, ''))}: ${body.count} records${body.nextPageToken ? ', more follow' : ''}, ${(performance.now() - began).toFixed(0)} ms cold`,
  );
}
