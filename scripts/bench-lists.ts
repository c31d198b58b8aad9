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
 *   - the MRU list (a few hundred recently used records);
 *   - a related list of a parent with 100,000 children (an Account's Contacts): the count with maxCount 2000,
 *     and the first page in the related list's order (by name).
 * After each slice it waits until the server's database has answered everything queued (PGlite answers one
 * query at a time), so that one slice's backlog does not fall into the next. Targets on PostgreSQL: p99 at
 * most 25 ms sorted or filtered, 60 ms with a searchTerm, 20 ms for the related list's count and first page.
 */
import { UI_API_PATH as UI_API } from '../common/platform.ts';
import type { Database } from '../server/db/connection.ts';
import type { DatabaseSettings } from '../server/db/settings.ts';
import { makeId } from '../server/platform/core/ids.ts';
import { ADMIN_USER_ID } from '../server/platform/core/principal.ts';
import { CONTACT_US_KEY_PREFIX } from '../server/storefront/demo-contacts.ts';
import { adminSessionCookie, runFor, serveForBench, startServer, topUpContacts } from './lib/bench-server.ts';
import type { LoadRequest } from './lib/load-generator.ts';
import {
  measureLevels,
  openBenchDatabase,
  printHeading,
  recordBenchArgs,
  type GoalTarget,
} from './lib/record-bench.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `${UI_API}/list-records/${OBJECT}/AllContactUs`;
const where = (filter: string) => `where=${encodeURIComponent(filter)}`;
const SEARCH_TERM = 'Austin';
/** The parent of the related-list measurements: an Account of the bench's own with RELATED_CHILDREN Contacts. */
const RELATED_PARENT_ID = makeId('001', 900_000);
const RELATED_CHILDREN = 100_000;
const RELATED_CHILD_SEQUENCE = 900_000;

const TARGETS: GoalTarget[] = [
  { name: 'All by name, first page', path: `${LIST}?pageSize=50`, goal: 25 },
  { name: 'All by name, offset 1950', path: `${LIST}?pageSize=50&pageToken=1950`, goal: 25 },
  {
    name: 'eq on a picklist (Country)',
    path: `${LIST}?pageSize=50&${where('{ APT_Country__c: { eq: "Canada" } }')}`,
    goal: 25,
  },
  // Newest first: in the seeded data names follow creation order, so a walk of the name index would pass a
  // fifth of the object before it met the week (the planner assumes matches spread evenly).
  {
    name: 'range of a date (a week), newest first',
    path: `${LIST}?pageSize=50&sortBy=-CreatedDate&${where('{ CreatedDate: { gte: "2025-06-01", lt: "2025-06-08" } }')}`,
    goal: 25,
  },
  { name: `searchTerm "${SEARCH_TERM}"`, path: `${LIST}?pageSize=50&searchTerm=${SEARCH_TERM}`, goal: 60 },
  { name: 'MRU list', path: `${UI_API}/mru-list-records/${OBJECT}?pageSize=50`, goal: 25 },
  {
    name: 'related list count, maxCount 2000 (100k)',
    path: `${UI_API}/related-list-count/${RELATED_PARENT_ID}/Contacts?maxCount=2000`,
    goal: 20,
  },
  {
    name: 'related list first page by name (100k)',
    path: `${UI_API}/related-list-records/${RELATED_PARENT_ID}/Contacts`,
    goal: 20,
    request: {
      method: 'POST',
      body: JSON.stringify({ fields: ['Contact.Name', 'Contact.Email'], pageSize: 50, sortBy: ['Contact.Name'] }),
    },
  },
];
/** Records in the bench user's MRU list. */
const MRU_RECORDS = 300;

const bench = recordBenchArgs();
if (bench.serve) await serveForBench(bench.settings);
else await main();

async function main() {
  printHeading('List engine benchmark', bench);
  const cookie = await prepare(bench.settings, bench.records);
  const server = await startServer(import.meta.filename, { DATA_DIR: bench.settings.dataDir, DEMO_CONTACTS: '0' });
  try {
    // POSTs (the related list's records) carry the session's CSRF token.
    const csrf = (await (
      await fetch(`${server.baseUrl}/services/data/v65.0/ui-api/session/csrf`, { headers: { cookie } })
    ).json()) as { csrfToken: string };
    const headers = { cookie, 'x-csrf-token': csrf.csrfToken };
    for (const one of TARGETS) await check(server.baseUrl, one.path, headers, one.request);
    await runFor(bench.options, server.baseUrl + TARGETS[0].path, 2, headers);
    console.log(
      await measureLevels(
        server.baseUrl,
        TARGETS.map((one) => ({ ...one, headers })),
        bench,
      ),
    );
  } finally {
    await server.stop();
  }
}

/**
 * Opens the database (migrating it, loading the list views and their indexes), tops the records up, gives the
 * administrator an MRU list and a session; returns the session's cookie.
 */
async function prepare(settings: DatabaseSettings, target: number): Promise<string> {
  const db = await openBenchDatabase(settings);
  try {
    const start = await topUpContacts(db, target);
    if (await seedRelatedChildren(db)) {
      const began = Date.now();
      await db.exec('VACUUM (ANALYZE) record');
      console.log(`VACUUM ANALYZE record: ${((Date.now() - began) / 1000).toFixed(1)} s`);
    }
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

/**
 * The related list's parent: an Account of the administrator's with RELATED_CHILDREN Contacts, written once
 * (ids from a range of their own), their names in an order unlike their ids'. Returns whether it wrote any.
 */
async function seedRelatedChildren(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM record WHERE object_api_name = 'Contact' AND fields ->> 'AccountId' = $1`,
    [RELATED_PARENT_ID],
  );
  if (rows[0].n >= RELATED_CHILDREN) return false;
  console.log(`Seeding the related list's parent with ${RELATED_CHILDREN} contacts...`);
  const began = Date.now();
  const insert = `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
    SELECT id, $2, '012000000000000AAA', f, now(), $3, now(), $3, now() FROM unnest($1::text[], $4::jsonb[]) AS t(id, f)
    ON CONFLICT (id) DO NOTHING`;
  await db.query(insert, [
    [RELATED_PARENT_ID],
    'Account',
    ADMIN_USER_ID,
    [JSON.stringify({ Name: 'Related List Bench Account', OwnerId: ADMIN_USER_ID })],
  ]);
  const batch = 5_000;
  for (let first = 0; first < RELATED_CHILDREN; first += batch) {
    const ids: string[] = [];
    const fields: string[] = [];
    for (let i = first; i < Math.min(first + batch, RELATED_CHILDREN); i++) {
      // A permutation of the children: names sort in another order than ids.
      const name = `Contact ${String((i * 7919) % RELATED_CHILDREN).padStart(6, '0')}`;
      ids.push(makeId('003', RELATED_CHILD_SEQUENCE + i));
      fields.push(
        JSON.stringify({
          LastName: name,
          Name: name,
          Email: `c${i}@bench.example`,
          AccountId: RELATED_PARENT_ID,
          OwnerId: ADMIN_USER_ID,
        }),
      );
    }
    await db.query(insert, [ids, 'Contact', ADMIN_USER_ID, fields]);
  }
  console.log(`  ${RELATED_CHILDREN} contacts in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return true;
}

/** One call, checked: a page of records (or a count), with the time it took. */
async function check(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  request?: LoadRequest,
): Promise<void> {
  const began = performance.now();
  const response = await fetch(
    baseUrl + path,
    request
      ? { method: request.method, body: request.body, headers: { ...headers, 'content-type': 'application/json' } }
      : { headers },
  );
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { count: number; nextPageToken?: string | null; hasMore?: boolean };
  console.log(
    `  ${decodeURIComponent(path.replace(/^.*ui-api\//, ''))}: ${body.count} records${body.nextPageToken || body.hasMore ? ', more follow' : ''}, ${(performance.now() - began).toFixed(0)} ms cold`,
  );
}
