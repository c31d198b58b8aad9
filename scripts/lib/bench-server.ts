/**
 * What the benchmarks share (npm run bench:locator, bench:nearest, bench:lists, bench:search, bench:api): the app served as a child process
 * beside a trivial endpoint, a database barrier and its CPU time; a session of the administrator written into
 * the database; measurements in alternating one-second slices with wrk or autocannon, the database drained
 * between slices, so that all targets meet the same background load and one slice's backlog does not fall
 * into the next.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import type { Database } from '../../server/db/connection.ts';
import type { DatabaseSettings } from '../../server/db/settings.ts';
import { ADMIN_USER_ID } from '../../server/platform/core/principal.ts';
import { runLoad, type LoadClient, type LoadRequest, type Slice } from './load-generator.ts';
import { ascending, percentile } from './percentile.ts';
import { startCommand } from './start-command.ts';

export const TRIVIAL_PATH = '/__bench/trivial';
const IDLE_PATH = '/__bench/idle';
const STATS_PATH = '/__bench/stats';
const WRITES_PATH = '/__bench/writes';
/** Write times kept at most between two calls of WRITES_PATH (a run that never asks keeps no more). */
const WRITE_TIMES_KEPT = 100_000;

/** A trivial endpoint inside the app, behind the gate every answer passes (security headers, the caller from the session cookie). */
export const IN_APP_TRIVIAL_PATH = '/__in-app/trivial';

/**
 * The child: the app as `npm start` serves it (with the pages when `site`), beside a trivial endpoint, a
 * database barrier and its CPU time with the locator's result-cache counters (serverStats); the app itself gets
 * a trivial endpoint too, behind its gate. Rate limits and the cap on connections per address are off: one
 * address sends every request.
 */
export async function serveForBench(
  settings: DatabaseSettings,
  { site = false }: { site?: boolean } = {},
): Promise<void> {
  // As site/main.ts does, before the PGlite worker starts.
  (await import('../../server/heap-growth.ts')).limitHeapGrowth();
  const { Hono } = await import('hono');
  const { createApp } = await import('../../server/app.ts');
  const { DEFAULT_CONNECTIONS, serveSite } = await import('../../server/http/connections/serve.ts');
  const { openDatabase } = await import('../../server/bootstrap.ts');
  const pages = site ? (await import('../../web/ssr/index.ts')).pageHandler : undefined;
  const db = await openDatabase(settings);
  const app = createApp(db, { limits: { publicRequestsPerMinute: 0 }, ...(pages ? { pages } : {}) });
  app.get(IN_APP_TRIVIAL_PATH, (c) => c.json({ ok: true }));
  const bench = new Hono();
  bench.get(TRIVIAL_PATH, (c) => c.json({ ok: true }));
  bench.get(IDLE_PATH, async (c) => c.json((await db.query('SELECT 1 AS ok')).rows[0]));
  bench.get(STATS_PATH, (c) => {
    const cpu = process.cpuUsage();
    const stats: ServerStats = { ...app.locatorCache.stats, cpuMicros: cpu.user + cpu.system };
    return c.json(stats);
  });
  // The app's time for each write (any method but GET and HEAD) since the last call: what the writes of a mixed
  // load wait for, their record's turn among them (benchMixedParts).
  let answeredWrites: number[] = [];
  bench.get(WRITES_PATH, (c) => {
    const times = answeredWrites;
    answeredWrites = [];
    return c.json(times);
  });
  const timedWrite = async (request: Request, env: Parameters<typeof app.fetch>[1]) => {
    const started = performance.now();
    try {
      return await app.fetch(request, env);
    } finally {
      if (answeredWrites.length < WRITE_TIMES_KEPT) answeredWrites.push(performance.now() - started);
    }
  };
  // As npm start serves the app.
  const server = serveSite(
    {
      fetch: (request, env) => {
        if (request.url.includes('/__bench/')) return bench.fetch(request, env);
        return request.method === 'GET' || request.method === 'HEAD'
          ? app.fetch(request, env)
          : timedWrite(request, env);
      },
      hostname: '127.0.0.1',
      port: 0,
      connections: { ...DEFAULT_CONNECTIONS, maxConnectionsPerAddress: 0 },
      trustProxy: false,
    },
    (info: AddressInfo) => console.log(JSON.stringify({ port: info.port })),
  );
  const stop = async () => {
    server.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

export interface MeasureOptions {
  client: LoadClient;
  duration: number;
  /** Connections of the load generator. */
  connections: number;
  waitLoad: number;
  waitMax: number;
}

/** Indexes of migration 013 that seeding drops and builds again after, like the list views' (search documents, names). */
const SEARCH_INDEXES = ['record_search_document_idx', 'record_name_prefix_idx'];

/**
 * Tops the Contact Us records up to `target` (the demo generator's, so that every run sees the same data),
 * without the list views' and search indexes meanwhile (building them after is much faster than keeping them
 * up to date row by row), then vacuums and analyzes the record table when it needs it. Returns the number of
 * records there before.
 */
export async function topUpContacts(db: Database, target: number): Promise<number> {
  const { contactCount, seedContacts } = await import('../../server/storefront/seed.ts');
  const { describeOrg } = await import('../../server/platform/core/describe.ts');
  const { syncDerivedIndexes } = await import('../../server/platform/derived-indexes.ts');
  const start = await contactCount(db);
  if (start < target) {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM list_view_index');
    const { rows: search } = await db.query<{ name: string; definition: string }>(
      'SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE indexname = ANY($1::text[]) AND schemaname = current_schema()',
      [SEARCH_INDEXES],
    );
    console.log(
      `Seeding ${target - start} records (${start} there), without the ${rows.length + search.length} list view and search indexes meanwhile...`,
    );
    for (const { name } of [...rows, ...search]) await db.query(`DROP INDEX IF EXISTS ${name}`);
    await db.query('DELETE FROM list_view_index');
    const began = Date.now();
    let reported = start;
    await seedContacts(db, target, (done) => {
      if (done - reported >= target / 10 || done === target) {
        reported = done;
        console.log(`  ${done} of ${target} (${Math.round((done - start) / ((Date.now() - began) / 1000))}/s)`);
      }
    });
    const indexing = Date.now();
    const created = await syncDerivedIndexes(db, await describeOrg(db));
    for (const { definition } of search) await db.query(definition);
    console.log(
      `Seeded in ${((indexing - began) / 1000).toFixed(1)} s; ${created.length} list view and ${search.length} search indexes built in ${((Date.now() - indexing) / 1000).toFixed(1)} s.`,
    );
  } else {
    console.log(`Reusing the ${start} records there.`);
  }
  const { rows: pages } = await db.query<{ pages: number; visible: number }>(
    `SELECT relpages AS pages, relallvisible AS visible FROM pg_class WHERE oid = 'record'::regclass`,
  );
  if (start < target || pages[0].visible < pages[0].pages * 0.95) {
    const began = Date.now();
    await db.exec('VACUUM (ANALYZE) record');
    console.log(`VACUUM ANALYZE record: ${((Date.now() - began) / 1000).toFixed(1)} s`);
  }
  return start;
}

/** A session of the administrator, written into the database; returns its cookie. */
export async function adminSessionCookie(db: Database): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  const day = 86_400_000;
  await db.query(
    'INSERT INTO user_session (id_hash, user_id, created_at, idle_expires_at, absolute_expires_at) VALUES ($1, $2, $3, $4, $4)',
    [createHash('sha256').update(sessionId).digest('hex'), ADMIN_USER_ID, new Date(), new Date(Date.now() + day)],
  );
  return `sid=${sessionId}`;
}

export interface Server {
  baseUrl: string;
  /** The child's process id (for its memory, /proc/<pid>/status). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The app as a child process (its own CPU, as in production), on 127.0.0.1 at a free port, with the environment
 * npm start sets (startCommand) and env: `script` run with --serve must call serveForBench.
 */
export async function startServer(script: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, '--serve'], {
    env: { ...process.env, ...startCommand().env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('The bench server did not start within 300 s')), 300_000);
      child.once('exit', (code) => reject(new Error(`The bench server exited (${code}) before listening`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        try {
          const { port } = JSON.parse(line) as { port?: number };
          if (port) {
            clearTimeout(timer);
            resolve(port);
          }
        } catch {
          console.log(`  [server] ${line}`);
        }
      });
    });
    return {
      baseUrl: `http://127.0.0.1:${port}`,
      pid: child.pid!,
      async stop() {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
}

export interface BenchTarget {
  name: string;
  path: string;
  headers?: Record<string, string>;
  request?: LoadRequest;
}

export function runFor(
  { client, connections }: MeasureOptions,
  url: string,
  seconds: number,
  headers: Record<string, string> = {},
  request?: LoadRequest,
): Promise<Slice> {
  return runLoad(client, url, seconds, connections, headers, request);
}

export async function waitForLoad({ waitLoad, waitMax }: MeasureOptions): Promise<void> {
  const deadline = Date.now() + waitMax * 1000;
  if (loadavg()[0] >= waitLoad && waitMax > 0)
    console.log(
      `Waiting up to ${waitMax} s for the 1-minute load average (${loadavg()[0].toFixed(2)}) to fall below ${waitLoad}...`,
    );
  while (loadavg()[0] >= waitLoad && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2_000));
}

/**
 * A call of the bench's own endpoints, on a connection of its own: a kept-alive one may be closed by the
 * server just as it is reused, after a slow slice.
 */
async function benchCall(url: string): Promise<Response> {
  return fetch(url, { headers: { connection: 'close' } });
}

/** The child's counters: its CPU time so far, and its locator result cache's hits, replays and misses. */
export interface ServerStats {
  cpuMicros: number;
  hits: number;
  replayed: number;
  misses: number;
}

export async function serverStats(baseUrl: string): Promise<ServerStats> {
  return (await (await benchCall(baseUrl + STATS_PATH)).json()) as ServerStats;
}

/** The app's time (ms) for each write it answered since the last call, in the order answered. */
export async function writeTimes(baseUrl: string): Promise<number[]> {
  return (await (await benchCall(baseUrl + WRITES_PATH)).json()) as number[];
}

async function cpuOf(baseUrl: string): Promise<number> {
  return (await serverStats(baseUrl)).cpuMicros;
}

/**
 * What a target's slices add up to: requests, throughput, median and 99th-percentile latency (ms), failures (not
 * 2xx, errors, and the two together).
 */
export function sliceTotals(slices: Slice[]) {
  const total = (of: (slice: Slice) => number) => slices.reduce((sum, slice) => sum + of(slice), 0);
  const requests = total((slice) => slice.requests);
  const latencies = ascending(slices.flatMap((slice) => slice.latencies));
  const at = (q: number) => percentile(latencies, q);
  const non2xx = total((slice) => slice.non2xx);
  const errors = total((slice) => slice.errors);
  return {
    requests,
    rps: requests / total((slice) => slice.seconds),
    p50: at(0.5),
    p99: at(0.99),
    non2xx,
    errors,
    failed: non2xx + errors,
  };
}

/** Measures the targets in alternating one-second slices, options.duration slices each; the database drained between slices. */
export async function measure(
  baseUrl: string,
  targets: BenchTarget[],
  options: MeasureOptions,
): Promise<Measurement[]> {
  console.log(
    `\nMeasuring ${targets.length} targets with ${options.connections} connections, alternating: load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const slices = targets.map((): Slice[] => []);
  const cpu = targets.map(() => 0);
  for (let round = 0; round < options.duration; round++) {
    for (const [index, target] of targets.entries()) {
      const before = await cpuOf(baseUrl);
      slices[index].push(await runFor(options, baseUrl + target.path, 1, target.headers, target.request));
      await (await benchCall(baseUrl + IDLE_PATH)).text();
      cpu[index] += (await cpuOf(baseUrl)) - before;
    }
  }
  return targets.map((target, index) => {
    const { requests, rps, p50, p99, non2xx, errors } = sliceTotals(slices[index]);
    const m: Measurement = { rps, p50, p99, cpuPerRequest: requests ? cpu[index] / requests : NaN };
    console.log(
      `  ${target.name}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms; ${requests} requests, ${non2xx} not 2xx, ${errors} errors`,
    );
    return m;
  });
}
