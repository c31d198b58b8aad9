/**
 * Benchmarks the nearest search: npm run bench:nearest [-- --contacts 1000000 --duration 10 --connections 1]
 *
 * On PostgreSQL: DATABASE_URL, else the local `test` database, in a schema of its own (bench_nearest) that is
 * kept, so that one seeding serves later runs. Tops the demo contacts up to --contacts (placed in the cities of
 * the country data), then runs the app as a child server with LOCATOR_CACHE=off, so that every call queries the
 * database, and measures getNearestContacts from a few points (a dense city, a city with a brand, cities of
 * other continents, a point at sea that makes the search grow several times) and getPlaceSuggestions, beside a
 * trivial endpoint of the same server, in alternating one-second slices (scripts/lib/bench-server.ts), with wrk
 * when it is installed, else autocannon. Target: p99 at most 20 ms for the nearest search, uncached.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { DatabaseSettings } from '../server/db/settings.ts';
import {
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

const SCHEMA = 'bench_nearest';
const APEX = '/lwr/apex/v65.0/APT_ContactUsController';
const nearest = (latitude: number, longitude: number, brands: string[] = []) =>
  `${APEX}/getNearestContacts?methodParams=${encodeURIComponent(JSON.stringify({ latitude, longitude, brands }))}`;
const suggestions = (prefix: string, country: string | null = null) =>
  `${APEX}/getPlaceSuggestions?methodParams=${encodeURIComponent(JSON.stringify({ prefix, country }))}`;

const TARGETS = [
  { name: 'nearest: Chicago', path: nearest(41.85003, -87.65005), goal: 20 },
  { name: 'nearest: Austin, brand Arcline', path: nearest(30.26715, -97.74306, ['Arcline']), goal: 20 },
  { name: 'nearest: Toronto', path: nearest(43.70643, -79.39864), goal: 20 },
  { name: 'nearest: Munich', path: nearest(48.13743, 11.57549), goal: 20 },
  { name: 'nearest: Sydney', path: nearest(-33.86785, 151.20732), goal: 20 },
  { name: 'nearest: at sea (mid-Atlantic)', path: nearest(30, -40), goal: 20 },
  { name: 'suggestions: "san", any country', path: suggestions('san'), goal: 20 },
  { name: 'suggestions: "spr", United States', path: suggestions('spr', 'United States'), goal: 20 },
];

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '1' },
    'wait-load': { type: 'string', default: '1.5' },
    'wait-max': { type: 'string', default: '60' },
    client: { type: 'string' },
    serve: { type: 'boolean', default: false },
  },
});

function databaseUrl(): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  url.searchParams.set('options', `-c search_path=${SCHEMA}`);
  return url.toString();
}

function benchSettings(): DatabaseSettings {
  return { databaseUrl: databaseUrl(), dataDir: ':memory:', demoContacts: 0 };
}

if (values.serve) await serveForBench(benchSettings());
else await main();

async function main() {
  const target = Number(values.contacts);
  const client = values.client ?? (hasWrk() ? 'wrk' : 'autocannon');
  if ((client !== 'wrk' && client !== 'autocannon') || (client === 'wrk' && !hasWrk())) {
    console.error('--client must be wrk (installed: apt-get install wrk) or autocannon');
    process.exit(2);
  }
  const options: Options = {
    client,
    duration: Number(values.duration),
    connections: Number(values.connections),
    waitLoad: Number(values['wait-load']),
    waitMax: Number(values['wait-max']),
  };
  if (!Number.isSafeInteger(target) || target < 1 || !(options.duration >= 1) || !(options.connections >= 1)) {
    console.error('--contacts, --duration and --connections must be positive numbers');
    process.exit(2);
  }
  const setup = new pg.Client({
    connectionString: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  });
  await setup.connect();
  await setup.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  await setup.end();
  console.log(`Nearest search benchmark: PostgreSQL, schema ${SCHEMA}`);
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${client === 'wrk' ? 'wrk, one thread' : 'autocannon'}, ${options.connections} connection(s), ${options.duration} s per measurement in 1 s slices, 127.0.0.1 only; LOCATOR_CACHE=off: every call queries the database`,
  );
  const { openDatabase } = await import('../server/bootstrap.ts');
  const began = Date.now();
  const db = await openDatabase(benchSettings());
  console.log(`Opened (migrated, places loaded) in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  try {
    await topUpContacts(db, target);
    await db.exec('ANALYZE place');
  } finally {
    await db.close();
  }
  const server = await startServer(import.meta.filename, { DATABASE_URL: databaseUrl(), LOCATOR_CACHE: 'off' });
  try {
    for (const one of TARGETS) {
      const start = performance.now();
      const response = await fetch(server.baseUrl + one.path);
      const body = (await response.json()) as { contacts?: { distanceKm: number | null }[] } | unknown[];
      if (response.status !== 200) throw new Error(`${one.name} answered ${response.status}`);
      const what = Array.isArray(body)
        ? `${body.length} cities`
        : `${body.contacts!.length} contacts, the farthest at ${body.contacts!.at(-1)?.distanceKm} km`;
      console.log(`  ${one.name}: ${what}, ${(performance.now() - start).toFixed(0)} ms cold`);
    }
    await run(options, server.baseUrl + TARGETS[0].path, 2);
    await waitForLoad(options);
    const measured = await measure(
      server.baseUrl,
      [{ name: 'trivial endpoint', path: TRIVIAL_PATH }, ...TARGETS],
      options,
    );
    console.log(`\nload average ${loadavg()[0].toFixed(2)} after`);
    console.log(`${'measurement'.padEnd(40)}   req/s   p50 ms   p99 ms  server CPU/req  target p99`);
    for (const [index, m] of measured.entries()) {
      const goal = index === 0 ? undefined : TARGETS[index - 1].goal;
      const name = index === 0 ? 'trivial endpoint' : TARGETS[index - 1].name;
      console.log(
        `${name.padEnd(40)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)}  ${goal === undefined ? '' : `≤ ${goal} ms${m.p99 <= goal ? ' met' : ' missed'}`}`,
      );
    }
  } finally {
    await server.stop();
  }
}
