/**
 * What the benchmarks over many records (bench:lists, bench:search) share: their command line, the database
 * they seed, and the table of their measurements at each number of connections, each beside a trivial endpoint
 * and with its p99 target on PostgreSQL.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { Database } from '../../server/db/connection.ts';
import { DataDirectoryLockedError } from '../../server/db/lock.ts';
import { settingsFromEnv, type DatabaseSettings } from '../../server/db/settings.ts';
import { measure, TRIVIAL_PATH, waitForLoad, type BenchTarget, type MeasureOptions } from './bench-server.ts';
import { hasWrk } from './load-generator.ts';

/** A measurement with its p99 target on PostgreSQL, in ms. */
export interface GoalTarget extends BenchTarget {
  goal: number;
}

export interface RecordBench {
  /** Run as the measured child server (--serve). */
  serve: boolean;
  /** How many records to seed. */
  records: number;
  /** The options of the first level; one table per level of connections. */
  options: MeasureOptions;
  levels: number[];
  settings: DatabaseSettings;
}

/** The database the environment names: DATABASE_URL, or PGlite in DATA_DIR (default .data-bench, shared). */
export function benchSettings(): DatabaseSettings {
  return { ...settingsFromEnv({ ...process.env, DATA_DIR: process.env.DATA_DIR || '.data-bench' }), demoContacts: 0 };
}

/** Reads the command line; on a bad one, says what is expected and exits. */
export function recordBenchArgs(): RecordBench {
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
  const settings = benchSettings();
  if (values.serve) return { serve: true, records: 0, options: undefined as never, levels: [], settings };
  const records = Number(values.records);
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
    !Number.isSafeInteger(records) ||
    records < 2000 ||
    !(options.duration >= 1) ||
    !levels.every((level) => Number.isInteger(level) && level >= 1)
  ) {
    console.error('--records must be at least 2000; --duration and --connections positive');
    process.exit(2);
  }
  return { serve: false, records, options, levels, settings };
}

/** The benchmark's first lines: what it runs on, and how it measures. */
export function printHeading(title: string, { settings, options, levels }: RecordBench): void {
  const database = settings.databaseUrl
    ? `PostgreSQL ${settings.databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}`
    : `PGlite in ${settings.dataDir}`;
  console.log(`${title}: ${database}`);
  console.log(
    `${cpus().length} CPUs, Node ${process.version}; ${options.client === 'wrk' ? 'wrk, one thread' : 'autocannon'}, ${levels.join(' and ')} connections, ${options.duration} s per measurement in 1 s slices, 127.0.0.1 only`,
  );
}

/** Opens the database (migrating it); a directory another server holds ends the benchmark with a word why. */
export async function openBenchDatabase(settings: DatabaseSettings): Promise<Database> {
  const { openDatabase } = await import('../../server/bootstrap.ts');
  try {
    return await openDatabase(settings);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(`${error.message}\nStop that server, or set DATA_DIR to another directory.`);
      process.exit(1);
    }
    throw error;
  }
}

/** Measures the targets beside the trivial endpoint at each level of connections; one table per level. */
export async function measureLevels(baseUrl: string, targets: GoalTarget[], bench: RecordBench): Promise<string> {
  const tables: string[] = [];
  for (const connections of bench.levels) {
    const level = { ...bench.options, connections };
    await waitForLoad(level);
    const measured = await measure(baseUrl, [{ name: 'trivial endpoint', path: TRIVIAL_PATH }, ...targets], level);
    tables.push(
      '',
      `${connections} connection${connections === 1 ? '' : 's'}, load average ${loadavg()[0].toFixed(2)} after`,
      `${'measurement'.padEnd(40)}   req/s   p50 ms   p99 ms  server CPU/req  target p99`,
    );
    for (const [index, m] of measured.entries()) {
      const one = index === 0 ? null : targets[index - 1];
      const met = !bench.settings.databaseUrl || !one ? '' : m.p99 <= one.goal ? ' met' : ' missed';
      tables.push(
        `${(one?.name ?? 'trivial endpoint').padEnd(40)} ${m.rps.toFixed(0).padStart(7)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)} ${`${m.cpuPerRequest.toFixed(0)} µs`.padStart(15)}  ${one ? `≤ ${one.goal} ms` : ''}${met}`,
      );
    }
  }
  return tables.join('\n');
}
