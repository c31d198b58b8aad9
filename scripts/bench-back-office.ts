/**
 * Benchmarks the back office in Chromium: npm run bench:back-office [-- --records 1000000 --loads 20]
 *
 * On PostgreSQL (DATABASE_URL, else the local server's bench_back_office database, made when missing), with that
 * many Contact Us records (seeded once, then reused), and beside it a baseline in the same run: the same
 * measurements on a database with the demo data alone (2,400 records; the same name with _demo). For each, the
 * built server (as npm start serves it, rate limits off) is started, and Debian's Chromium, signed in as the
 * administrator (a session written into the database), loads each page anew `--loads` times in one browser (its
 * HTTP cache kept, as for someone at work in the back office):
 *   - the All list view (/lightning/o/APT_Contact_Us__c/list?filterName=AllContactUs): navigation to its first
 *     row of records;
 *   - a record page (/lightning/r/APT_Contact_Us__c/{id}/view, a different record each load): navigation to the
 *     first contentful paint, and to its name and first section shown.
 * Each time is read in the page (performance.now(), from the navigation's start) by a MutationObserver installed
 * before any of the page's scripts run. Prints the median and p95 of each, the targets (list view ≤ 500 ms,
 * record page ≤ 400 ms), met or missed, and the load average before each group.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium, type BrowserContext } from 'playwright-core';
import { UI_API_PATH as UI_API } from '../common/platform.ts';
import { openDatabase } from '../server/bootstrap.ts';
import { settingsFromEnv } from '../server/db/settings.ts';
import { adminSessionCookie, topUpContacts } from './lib/bench-server.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './lib/chromium.ts';
import { ascending, percentile } from './lib/percentile.ts';
import { startCommand } from './lib/start-command.ts';

const ROOT = resolve(import.meta.dirname, '..');
const OBJECT = 'APT_Contact_Us__c';
const LIST_PAGE = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
const DEMO_RECORDS = 2400;
const TARGETS = { list: 500, record: 400 };

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000000' },
    loads: { type: 'string', default: '20' },
  },
});

/** When each watched element first showed, in ms from the navigation's start; set before the page's scripts run. */
declare global {
  interface Window {
    firstShown: Record<string, number>;
  }
}

/**
 * The script that sets window.firstShown, as text: a function passed to the page would carry what tsx adds to
 * it (its __name helper), which the page does not have.
 */
function watchFirstShown(watched: Record<string, string>): string {
  return `(() => {
    const watched = ${JSON.stringify(watched)};
    window.firstShown = {};
    const check = () => {
      for (const [name, selector] of Object.entries(watched))
        if (window.firstShown[name] === undefined && document.querySelector(selector))
          window.firstShown[name] = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  })();`;
}

/** The list view's first row of records; a record page's first section (after its name, in the same render). */
const WATCHED = { listRow: '.bo-table tbody tr', recordShown: '.bo-record .bo-section' };

interface Figures {
  list: number[];
  recordPaint: number[];
  recordShown: number[];
}

/** The median and p95 of the loads that gave a time (a tab may report no first contentful paint), and how many did. */
function summary(times: number[]): { median: number; p95: number; count: number } {
  const sorted = ascending(times.filter(Number.isFinite));
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), count: sorted.length };
}

function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/bench_back_office');
  if (name) url.pathname = `${url.pathname}_${name}`;
  return url.toString();
}

async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** The database seeded to `records` Contact Us records; an administrator's session cookie and some record ids. */
async function prepare(url: string, records: number): Promise<{ cookie: string; recordIds: string[] }> {
  await ensureDatabase(url);
  const settings = { ...settingsFromEnv({ ...process.env, DATABASE_URL: url }), demoContacts: DEMO_RECORDS };
  const db = await openDatabase(settings, { log: () => undefined });
  try {
    await topUpContacts(db, records);
    const cookie = await adminSessionCookie(db);
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM record WHERE object_api_name = $1 ORDER BY id DESC LIMIT 200`,
      [OBJECT],
    );
    return { cookie, recordIds: rows.map((row) => row.id) };
  } finally {
    await db.close();
  }
}

/** The built server, as npm start runs it, on a free port; rate limits and the per-address cap off. */
async function startSite(url: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const built = startCommand();
  const child: ChildProcess = spawn(process.execPath, built.args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...built.env,
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_REQUESTS_PER_MINUTE: '0',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const baseUrl = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error('The server did not start within 120 s')), 120_000);
    child.once('exit', (code) => fail(new Error(`The server exited (${code}) before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const found = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(String(chunk));
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
  });
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * One load of `path` in a new tab: the watched times and the first contentful paint, waited for (up to 5 s) when
 * the watched element is in the page before anything is painted.
 */
async function load(context: BrowserContext, url: string, watched: string): Promise<{ shown: number; fcp: number }> {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction((name) => window.firstShown?.[name] !== undefined, watched, { timeout: 60_000 });
    return await page.evaluate(
      (name) =>
        new Promise<{ shown: number; fcp: number }>((done) => {
          const shown = window.firstShown[name];
          const timer = setTimeout(() => done({ shown, fcp: NaN }), 5_000);
          new PerformanceObserver((entries) => {
            const paint = entries.getEntriesByName('first-contentful-paint')[0];
            if (!paint) return;
            clearTimeout(timer);
            done({ shown, fcp: paint.startTime });
          }).observe({ type: 'paint', buffered: true });
        }),
      watched,
    );
  } finally {
    await page.close();
  }
}

async function measure(url: string, records: number, loads: number): Promise<Figures> {
  const { cookie, recordIds } = await prepare(url, records);
  const site = await startSite(url);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext();
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: site.baseUrl }]);
    await context.addInitScript({ content: watchFirstShown(WATCHED) });
    // Once each, unmeasured: the browser's cache holds the scripts and styles, as for someone at work.
    await load(context, site.baseUrl + LIST_PAGE, 'listRow');
    await load(context, `${site.baseUrl}/lightning/r/${OBJECT}/${recordIds.at(-1)}/view`, 'recordShown');
    const figures: Figures = { list: [], recordPaint: [], recordShown: [] };
    for (let index = 0; index < loads; index += 1) {
      figures.list.push((await load(context, site.baseUrl + LIST_PAGE, 'listRow')).shown);
      const record = `${site.baseUrl}/lightning/r/${OBJECT}/${recordIds[index % recordIds.length]}/view`;
      const { shown, fcp } = await load(context, record, 'recordShown');
      figures.recordShown.push(shown);
      figures.recordPaint.push(fcp);
    }
    // A check that the figures are of real pages: the API answers the list the page showed.
    const answer = await fetch(`${site.baseUrl}${UI_API}/list-records/${OBJECT}/AllContactUs?pageSize=1`, {
      headers: { cookie },
    });
    if (answer.status !== 200) throw new Error(`The list view's records answered ${answer.status}`);
    return figures;
  } finally {
    await browser.close();
    await site.stop();
  }
}

function row(name: string, times: number[], target?: number): string {
  const { median, p95, count } = summary(times);
  const verdict = target === undefined ? '' : `≤ ${target} ms ${median <= target && p95 <= target ? 'met' : 'missed'}`;
  const loads = `${count} of ${times.length}`;
  return `${name.padEnd(44)} ${median.toFixed(0).padStart(8)} ${p95.toFixed(0).padStart(8)} ${loads.padStart(9)}  ${verdict}`;
}

async function main() {
  const records = Number(values.records);
  const loads = Number(values.loads);
  if (!Number.isSafeInteger(records) || records < DEMO_RECORDS || !Number.isSafeInteger(loads) || loads < 1) {
    console.error(`--records must be at least ${DEMO_RECORDS}; --loads at least 1`);
    process.exit(2);
  }
  if (!existsSync(resolve(ROOT, 'dist/server/main.js'))) {
    console.error('Build first: npm run build (npm run bench:back-office does).');
    process.exit(2);
  }
  console.log(
    `Back office benchmark: ${cpus().length} CPUs, Node ${process.version}, Chromium (${CHROMIUM}), ${loads} loads of each page`,
  );
  const groups: [string, string, number][] = [
    [`baseline: ${DEMO_RECORDS.toLocaleString('en')} records`, databaseUrl('demo'), DEMO_RECORDS],
    [`${records.toLocaleString('en')} records`, databaseUrl(''), records],
  ];
  const lines: string[] = [];
  for (const [name, url, count] of groups) {
    const before = loadavg()[0];
    const figures = await measure(url, count, loads);
    lines.push('', `${name} (PostgreSQL), load average ${before.toFixed(2)} before`);
    lines.push(
      `${'from navigation to'.padEnd(44)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'loads'.padStart(9)}  target`,
    );
    lines.push(row('the All list view’s first row', figures.list, count === records ? TARGETS.list : undefined));
    lines.push(row('a record page’s first contentful paint', figures.recordPaint));
    lines.push(
      row(
        'a record page’s name and first section',
        figures.recordShown,
        count === records ? TARGETS.record : undefined,
      ),
    );
  }
  console.log(lines.join('\n'));
}

await main();
