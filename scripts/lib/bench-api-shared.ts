/**
 * What the scenarios of npm run bench:api share (scripts/bench-api.ts; the write storm, contention and memory in
 * bench-api-storm.ts, bench-api-contention.ts and bench-api-memory.ts): the requests they send, the server they
 * start, the database prepared for them, and their warm-up and summaries.
 */
import { fileURLToPath } from 'node:url';
import { CSRF_HEADER, UI_API_PATH as UI_API } from '../../common/platform.ts';
import { DataDirectoryLockedError } from '../../server/db/lock.ts';
import type { DatabaseSettings } from '../../server/db/settings.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { BRANDS } from '../../server/storefront/demo-contacts.ts';
import { adminSessionCookie, startServer, type BenchTarget, type MeasureOptions, type Server } from './bench-server.ts';
import { runLoad, type MixedRequest } from './load-generator.ts';

/**
 * Each target is warmed up until the code that serves it runs as it will from then on (V8 optimizes a function
 * once it has run often enough): at least WARM_REQUESTS requests, or WARM_MAX_SECONDS of load. A page render
 * needs some 2,000 renders to go from about 9 ms of CPU to its steady cost; a second of load gives a few hundred.
 */
const WARM_REQUESTS = 3_000;
const WARM_MAX_SECONDS = 15;
/**
 * The mixed load is warmed up too, at its connections, before it is measured: its writes run only there, and the
 * pool opens its connections (each preparing its statements) only under that many requests at once. Its first
 * seconds are slower: on PostgreSQL, a p99 of 105 and 151 ms in its first two 3 s slices, 42 to 98 ms in the 18
 * after.
 */
export const MIX_WARM_SECONDS = 15;
export const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
export const ACCOUNTS = [1, 2, 3].map((n) => makeId('001', n));
export const locatorPath = (country: string, state: string, brand: string) =>
  `/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${encodeURIComponent(JSON.stringify({ country, state, brands: [brand], lastRecordId: null }))}`;
export const PAGES = ['/', '/?country=United+States&page=2'];
export const RECORD = (id: string) =>
  `${UI_API}/records/${id}?fields=Account.Name,Account.Phone&optionalFields=Account.Industry,Account.BillingCity`;
export const OBJECT_INFO = (object: string) => `${UI_API}/object-info/${object}`;
export const RECORD_UI = `${UI_API}/record-ui/${ACCOUNTS[0]}?layoutTypes=Full&modes=View`;
/** The state whose representatives the storm's writer updates. */
export const STORM_STATE = { country: 'United States', state: 'Texas' };

/** The whole site as a child process, as bench-api.ts --serve serves it (serveForBench). */
export function startSite(env: NodeJS.ProcessEnv): Promise<Server> {
  return startServer(fileURLToPath(new URL('../bench-api.ts', import.meta.url)), env);
}

/** The mixed load's requests and their weights (out of 100). */
export function mixedRequests(cookie: string, csrf: string): MixedRequest[] {
  const signedIn = { ...BROWSER, cookie };
  const filters: [string, string, string][] = [
    ['United States', 'Texas', BRANDS[0]],
    ['United States', 'California', BRANDS[1]],
    ['Canada', 'Ontario', BRANDS[2]],
    ['Germany', 'Bavaria', BRANDS[3]],
    ['United States', 'Ohio', BRANDS[4]],
  ];
  return [
    ...filters.map(([country, state, brand]): MixedRequest => ({
      weight: 6,
      method: 'GET',
      path: locatorPath(country, state, brand),
      headers: BROWSER,
    })),
    ...PAGES.map((path): MixedRequest => ({ weight: 10, method: 'GET', path, headers: BROWSER })),
    ...ACCOUNTS.map((id): MixedRequest => ({ weight: 9, method: 'GET', path: RECORD(id), headers: signedIn })),
    { weight: 3, method: 'GET', path: RECORD_UI, headers: signedIn },
    ...['Account', 'Contact', 'APT_Contact_Us__c'].map((object): MixedRequest => ({
      weight: 5,
      method: 'GET',
      path: OBJECT_INFO(object),
      headers: signedIn,
    })),
    ...ACCOUNTS.slice(0, 1).map((id): MixedRequest => ({
      weight: 5,
      method: 'PATCH',
      path: `${UI_API}/records/${id}`,
      headers: { ...signedIn, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { Description: 'Updated by the mixed load of npm run bench:api' } }),
    })),
  ];
}

/** Every target answers 200 before it is measured, then is warmed up (WARM_REQUESTS), so that nothing is measured cold. */
export async function warmUp(server: Server, targets: BenchTarget[], options: MeasureOptions): Promise<void> {
  for (const target of targets) await check(server, target.path, target.headers ?? {});
  for (const target of targets) {
    let requests = 0;
    for (let second = 0; second < WARM_MAX_SECONDS && requests < WARM_REQUESTS; second++) {
      requests += (await runLoad('wrk', server.baseUrl + target.path, 1, options.connections, target.headers)).requests;
    }
  }
}

export async function check(
  server: Server,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<void> {
  const response = await fetch(server.baseUrl + path, { method, headers, body });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
}

export async function csrfToken(server: Server, cookie: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${UI_API}/session/csrf`, { headers: { cookie } });
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Opens the database (migrating and seeding the demo data on a first start), signs the administrator in, and
 * finds the storm's representatives: those of STORM_STATE that are not the default contact.
 */
export async function prepare(settings: DatabaseSettings): Promise<{ cookie: string; stormIds: string[] }> {
  const { openDatabase } = await import('../../server/bootstrap.ts');
  try {
    const db = await openDatabase(settings);
    try {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields->>'APT_Country__c' = $1
           AND fields->>'APT_Primary_State__c' = $2 AND fields->>'APT_Default_Contact__c' IS DISTINCT FROM 'true'
         ORDER BY id LIMIT 20`,
        [STORM_STATE.country, STORM_STATE.state],
      );
      return { cookie: await adminSessionCookie(db), stormIds: rows.map((row) => row.id) };
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(`${error.message}\nStop that server, or set BENCH_DATA_DIR to another directory.`);
      process.exit(1);
    }
    throw error;
  }
}
