/**
 * Benchmarks moving Contact Us records in and out as CSV: npm run bench:import [-- --records 1000000]
 *
 * On PGlite in DATA_DIR (default .data-bench, the other record benches', so that one seeding serves all), and on
 * PostgreSQL too when DATABASE_URL names one (--databases pglite or postgresql runs one alone): seeds (or reuses)
 * the records, runs the app as a child server on 127.0.0.1 signed in as the administrator (a session written into
 * the database), and runs each section of SECTIONS against it, one after the other. A section measures one thing
 * and says its figures and whether it met its targets (on PostgreSQL).
 *
 * - export: GET /lightning/o/APT_Contact_Us__c/list/export.csv?filterName=AllContactUs, every record sorted by
 *   name, read to the end by one client: its time, rows per second, and the server's resident set size (RSS,
 *   /proc/<pid>/status, sampled every 100 ms) at its peak during the export beside its RSS before (after a
 *   warm-up export of a small view). Targets on PostgreSQL: at most 60 s, and under 100 MB of growth.
 *
 * The import's dry run and commit are sections to come, added to SECTIONS beside the export.
 */
import { parseArgs } from 'node:util';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import { adminSessionCookie, serveForBench, startServer, topUpContacts, type Server } from './lib/bench-server.ts';
import { benchSettings, openBenchDatabase } from './lib/record-bench.ts';
import { residentBytes } from './lib/server-memory.ts';

const MB = 1024 * 1024;
const OBJECT = 'APT_Contact_Us__c';
const exportPath = (view: string) => `/lightning/o/${OBJECT}/list/export.csv?filterName=${view}`;

/** What a section is given: the running server, the administrator's cookie, the records there and the database. */
interface SectionContext {
  server: Server;
  cookie: string;
  records: number;
  postgres: boolean;
}

/** A section of the benchmark: its name, and its run, which returns the lines of its figures. */
interface Section {
  name: string;
  run(context: SectionContext): Promise<string[]>;
}

const verdict = (met: boolean) => (met ? 'met' : 'missed');

/**
 * Reads an export to its end; its rows (line ends outside quoted fields, less the header) and bytes. `onRows` is
 * called with the rows read so far after each part.
 */
async function readExport(
  url: string,
  cookie: string,
  onRows: (rows: number) => void = () => {},
): Promise<{ rows: number; bytes: number; firstByte: number }> {
  const began = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  let firstByte = 0;
  let lines = 0;
  let bytes = 0;
  let quoted = false;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    firstByte ||= performance.now() - began;
    bytes += chunk.length;
    for (const byte of chunk) {
      if (byte === 0x22) quoted = !quoted;
      else if (byte === 0x0a && !quoted) lines++;
    }
    onRows(lines - 1);
  }
  return { rows: lines - 1, bytes, firstByte };
}

const exportSection: Section = {
  name: 'export',
  async run({ server, cookie, records, postgres }) {
    // The export's code and the database's plans warmed up on a small view first.
    await readExport(server.baseUrl + exportPath('DefaultContacts'), cookie);
    const before = residentBytes(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentBytes(server.pid));
    }, 100);
    // The server's RSS as each tenth of the rows arrives: flat once the first chunks are in, whatever the size.
    const tenths: number[] = [];
    const onRows = (rows: number) => {
      if (rows >= ((tenths.length + 1) * records) / 10) tenths.push(residentBytes(server.pid));
    };
    const began = performance.now();
    let read;
    try {
      read = await readExport(server.baseUrl + exportPath('AllContactUs'), cookie, onRows);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - began) / 1000;
    peak = Math.max(peak, residentBytes(server.pid));
    const growth = (peak - before) / MB;
    if (read.rows !== records) throw new Error(`The export had ${read.rows} rows, not ${records}`);
    const target = (met: boolean, goal: string) => (postgres ? `  target ${goal}: ${verdict(met)}` : '');
    return [
      `${read.rows} rows, ${(read.bytes / MB).toFixed(1)} MB of CSV; first byte after ${read.firstByte.toFixed(0)} ms`,
      `time ${seconds.toFixed(1)} s, ${Math.round(read.rows / seconds)} rows/s${target(seconds <= 60, '≤ 60 s')}`,
      `server RSS ${(before / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB at its peak: +${growth.toFixed(0)} MB${target(growth < 100, '< 100 MB')}`,
      `server RSS at each tenth of the rows, MB: ${tenths.map((bytes) => (bytes / MB).toFixed(0)).join(', ')}`,
    ];
  },
};

const SECTIONS: Section[] = [exportSection];

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    databases: { type: 'string' },
    serve: { type: 'boolean', default: false },
  },
});

if (values.serve) await serveForBench(benchSettings());
else await main();

async function main() {
  const records = Number(values.records);
  if (!Number.isSafeInteger(records) || records < 1) {
    console.error('--records must be a positive whole number');
    process.exit(2);
  }
  const available = process.env.DATABASE_URL ? ['pglite', 'postgresql'] : ['pglite'];
  const chosen = values.databases?.split(',') ?? available;
  if (!chosen.every((one) => available.includes(one))) {
    console.error(`--databases may name ${available.join(' and ')} (postgresql when DATABASE_URL is set)`);
    process.exit(2);
  }
  for (const database of chosen) {
    const postgres = database === 'postgresql';
    const env = postgres ? {} : { DATABASE_URL: '' };
    const settings: DatabaseSettings = {
      ...settingsFromEnv({ ...process.env, ...env, DATA_DIR: process.env.DATA_DIR || '.data-bench' }),
      demoContacts: 0,
    };
    console.log(
      `\nImport and export benchmark on ${postgres ? `PostgreSQL ${String(process.env.DATABASE_URL).replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}` : `PGlite in ${settings.dataDir}`}, ${records} records`,
    );
    const cookie = await prepare(settings, records);
    const server = await startServer(import.meta.filename, { ...env, DEMO_CONTACTS: '0' });
    try {
      for (const section of SECTIONS) {
        console.log(`${section.name}:`);
        for (const line of await section.run({ server, cookie, records, postgres })) console.log(`  ${line}`);
      }
    } finally {
      await server.stop();
    }
  }
}

/** Opens the database, tops the Contact Us records up to `records` and writes a session; returns its cookie. */
async function prepare(settings: DatabaseSettings, records: number): Promise<string> {
  const db = await openBenchDatabase(settings);
  try {
    const there = await topUpContacts(db, records);
    if (there > records)
      throw new Error(`The database holds ${there} records, more than ${records}: use another DATA_DIR or database`);
    return await adminSessionCookie(db);
  } finally {
    await db.close();
  }
}
