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
 * - import: a file of 50,000 rows (--rows) posted to POST /lightning/o/APT_Contact_Us__c/import/dry-run and then to
 *   /import/commit: half of them new, a quarter changing a record (by Id), a quarter the same as their record.
 *   The dry run's and the commit's time, their report's totals checked against the file's make-up, and the
 *   server's RSS at its peak beside its RSS before. Targets on PostgreSQL: dry run at most 10 s, commit at most
 *   60 s. The records it created are deleted afterwards (in batches through the records batch operation), so that
 *   the next run starts from the same records; the changed ones take a new value at each run.
 */
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import type { Database } from '../server/db/connection.ts';
import { settingsFromEnv, type DatabaseSettings } from '../server/db/settings.ts';
import { adminSessionCookie, serveForBench, startServer, topUpContacts, type Server } from './lib/bench-server.ts';
import { benchSettings, openBenchDatabase } from './lib/record-bench.ts';
import { residentBytes } from './lib/server-memory.ts';
import type { ImportTotals } from '../common/import-report.ts';

const MB = 1024 * 1024;
const OBJECT = 'APT_Contact_Us__c';
const exportPath = (view: string) => `/lightning/o/${OBJECT}/list/export.csv?filterName=${view}`;

/** What a section is given: the running server, the administrator's cookie, the records there and the database. */
interface SectionContext {
  server: Server;
  cookie: string;
  records: number;
  postgres: boolean;
  importFile: ImportFile;
}

/** The import's file and what its dry run must find in it. */
interface ImportFile {
  csv: string;
  rows: number;
  expected: { new: number; changed: number; unchanged: number };
}

/** The columns of the import's file: the record's writable fields, by their API names, with Id first. */
const IMPORT_FIELDS = [
  'APT_Company_Name__c',
  'APT_Address_1__c',
  'APT_Address_2__c',
  'APT_City__c',
  'APT_Country__c',
  'APT_Primary_State__c',
  'APT_Zip__c',
  'APT_Phone__c',
  'APT_Email__c',
  'APT_Brand__c',
  'APT_Default_Contact__c',
];
const NEW_COMPANY = 'Import bench';

/**
 * The import's file of `rows` rows: a quarter of them the records first by Id as they are, a quarter the next ones
 * with a new Address 2 (a new value at each run), and half new records (no Id, a company and e-mail of their own,
 * the rest of a record's values).
 */
async function makeImportFile(db: Database, rows: number): Promise<ImportFile> {
  const existing = Math.floor(rows / 2);
  const { rows: records } = await db.query<{ id: string; fields: Record<string, unknown> }>(
    `SELECT id, fields FROM record WHERE object_api_name = $1 AND fields ->> 'APT_Company_Name__c' NOT LIKE $2 ORDER BY id LIMIT $3`,
    [OBJECT, `${NEW_COMPANY}%`, existing],
  );
  if (records.length < existing)
    throw new Error(`The file needs ${existing} records; the database has ${records.length}`);
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const run = Date.now().toString(36);
  const lines: string[][] = [['Id', ...IMPORT_FIELDS]];
  const changed = Math.floor(existing / 2);
  records.forEach((record, index) => {
    const fields = { ...record.fields };
    if (index >= existing - changed) fields.APT_Address_2__c = `Suite ${run}`;
    lines.push([record.id, ...IMPORT_FIELDS.map((field) => text(fields[field]))]);
  });
  const created = rows - existing;
  for (let index = 0; index < created; index++) {
    const fields = { ...records[index % records.length].fields };
    fields.APT_Company_Name__c = `${NEW_COMPANY} ${run} ${index}`;
    fields.APT_Email__c = `import-${run}-${index}@bench.example`;
    fields.APT_Default_Contact__c = false;
    lines.push(['', ...IMPORT_FIELDS.map((field) => text(fields[field]))]);
  }
  return {
    csv: stringify(lines),
    rows,
    expected: { new: created, changed, unchanged: existing - changed },
  };
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

/** Posts the file to the import's route; its time, the server's peak RSS meanwhile, and the answer's body. */
async function postImport(server: Server, cookie: string, step: 'dry-run' | 'commit', csv: string) {
  const form = new FormData();
  form.set('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv');
  form.set('options', JSON.stringify({ matchKey: ['APT_Company_Name__c', 'APT_Email__c'] }));
  const before = residentBytes(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(server.pid));
  }, 100);
  const began = performance.now();
  let body: string;
  try {
    const response = await fetch(`${server.baseUrl}/lightning/o/${OBJECT}/import/${step}`, {
      method: 'POST',
      headers: { cookie, origin: server.baseUrl },
      body: form,
    });
    body = await response.text();
    if (response.status !== 200) throw new Error(`The ${step} answered ${response.status}: ${body.slice(0, 500)}`);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - began) / 1000;
  peak = Math.max(peak, residentBytes(server.pid));
  return { seconds, before, peak, body };
}

/** The report's line of a commit's NDJSON answer. */
function commitReport(body: string): { totals: ImportTotals; rows: { recordId: string | null; outcome: string }[] } {
  const lines = body.trim().split('\n');
  const last = JSON.parse(lines[lines.length - 1]) as { type: string };
  if (last.type !== 'report')
    throw new Error(`The commit's last line is not its report: ${lines.at(-1)?.slice(0, 300)}`);
  return last as unknown as ReturnType<typeof commitReport>;
}

/** Deletes records in batches of 200 through the records batch operation. */
async function deleteRecords(server: Server, cookie: string, ids: string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += 200) {
    const response = await fetch(`${server.baseUrl}/services/data/v65.0/ui-api/records/batch`, {
      method: 'POST',
      headers: { cookie, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({
        allOrNone: true,
        operations: [{ type: 'DELETE', records: ids.slice(start, start + 200).map((id) => ({ fields: { Id: id } })) }],
      }),
    });
    if (response.status !== 200) throw new Error(`Deleting the imported records answered ${response.status}`);
  }
}

const importSection: Section = {
  name: 'import',
  async run({ server, cookie, postgres, importFile }) {
    const memory = (before: number, peak: number) =>
      `server RSS ${(before / MB).toFixed(0)} MB before, ${(peak / MB).toFixed(0)} MB at its peak: +${((peak - before) / MB).toFixed(0)} MB`;
    const target = (met: boolean, goal: string) => (postgres ? `  target ${goal}: ${verdict(met)}` : '');
    const { expected } = importFile;
    const lines = [
      `${importFile.rows} rows (${expected.new} new, ${expected.changed} changed, ${expected.unchanged} unchanged), ${(importFile.csv.length / MB).toFixed(1)} MB of CSV`,
    ];
    const dryRun = await postImport(server, cookie, 'dry-run', importFile.csv);
    const found = (JSON.parse(dryRun.body) as { totals: ImportTotals }).totals;
    const foundText = `new ${found.new}, changed ${found.changed}, unchanged ${found.unchanged}, invalid ${found.invalid}`;
    if (found.new !== expected.new || found.changed !== expected.changed || found.unchanged !== expected.unchanged)
      throw new Error(`The dry run found ${foundText}; the file holds ${JSON.stringify(expected)}`);
    lines.push(
      `dry run: ${dryRun.seconds.toFixed(1)} s, ${Math.round(importFile.rows / dryRun.seconds)} rows/s (${foundText})${target(dryRun.seconds <= 10, '≤ 10 s')}`,
      `  ${memory(dryRun.before, dryRun.peak)}`,
    );
    const commit = await postImport(server, cookie, 'commit', importFile.csv);
    const report = commitReport(commit.body);
    const { totals } = report;
    lines.push(
      `commit: ${commit.seconds.toFixed(1)} s, ${Math.round((totals.created + totals.updated) / commit.seconds)} writes/s (created ${totals.created}, updated ${totals.updated}, failed ${totals.failed})${target(commit.seconds <= 60, '≤ 60 s')}`,
      `  ${memory(commit.before, commit.peak)}`,
    );
    if (totals.created !== expected.new || totals.updated !== expected.changed)
      throw new Error(`The commit wrote ${JSON.stringify(totals)}; the file holds ${JSON.stringify(expected)}`);
    const began = performance.now();
    const created = report.rows.filter((row) => row.outcome === 'created').map((row) => row.recordId!);
    await deleteRecords(server, cookie, created);
    lines.push(
      `(the ${created.length} records created deleted again in ${((performance.now() - began) / 1000).toFixed(1)} s)`,
    );
    return lines;
  },
};

const SECTIONS: Section[] = [exportSection, importSection];

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    databases: { type: 'string' },
    rows: { type: 'string', default: '50000' },
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
    const { cookie, importFile } = await prepare(settings, records, Number(values.rows));
    const server = await startServer(import.meta.filename, { ...env, DEMO_CONTACTS: '0' });
    try {
      for (const section of SECTIONS) {
        console.log(`${section.name}:`);
        for (const line of await section.run({ server, cookie, records, postgres, importFile }))
          console.log(`  ${line}`);
      }
    } finally {
      await server.stop();
    }
  }
}

/**
 * Opens the database, tops the Contact Us records up to `records`, writes a session and makes the import's file;
 * returns the session's cookie and the file.
 */
async function prepare(settings: DatabaseSettings, records: number, rows: number) {
  const db = await openBenchDatabase(settings);
  try {
    await topUpContacts(db, records);
    // The records of an earlier run that stopped before deleting them.
    await db.query(`DELETE FROM record WHERE object_api_name = $1 AND fields ->> 'APT_Company_Name__c' LIKE $2`, [
      OBJECT,
      `${NEW_COMPANY} %`,
    ]);
    // Counted, not taken from the id sequence: the import's records, created and deleted again, moved it on.
    const { rows: counted } = await db.query<{ count: string }>(
      'SELECT count(*) AS count FROM record WHERE object_api_name = $1',
      [OBJECT],
    );
    const there = Number(counted[0].count);
    if (there !== records)
      throw new Error(`The database holds ${there} records, not ${records}: use another DATA_DIR or database`);
    return { cookie: await adminSessionCookie(db), importFile: await makeImportFile(db, rows) };
  } finally {
    await db.close();
  }
}
