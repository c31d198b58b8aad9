/**
 * Benchmarks duplicate matching: npm run bench:duplicates [-- --records 1000000 --calls 2000]
 *
 * PostgreSQL only: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a schema of its own
 * (bench_duplicates) that is kept, so that one seeding serves later runs. Tops the Contact Us records up to
 * --records straight in SQL (companies shared by five records each, an e-mail and a phone number of their
 * own), then times the domain call POST /predupe makes (getDuplicates, without HTTP) one call at a time, as
 * the administrator: a third with a similar company and the same e-mail (the alerting rule's fuzzy match), a
 * third with the same e-mail and phone (the blocking rule) and a third that matches nothing. Prints p50, p99
 * and the worst call. Target: p99 at most 30 ms at 1,000,000 records.
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openMigratedDatabase } from '../server/db/open.ts';
import { getDuplicates } from '../server/platform/duplicates/operations.ts';
import { loadOrgMetadata } from '../server/platform/metadata.ts';
import { ADMIN_USER_ID, profileNamed, type Principal } from '../server/platform/core/principal.ts';
import { percentile } from './lib/percentile.ts';

const { values } = parseArgs({
  options: { records: { type: 'string', default: '1000000' }, calls: { type: 'string', default: '2000' } },
});
const records = Number(values.records);
const calls = Number(values.calls);
const OBJECT = 'APT_Contact_Us__c';
const SCHEMA = 'bench_duplicates';
const COMPANIES = Math.max(1, Math.floor(records / 5));

const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const setup = new pg.Client({ connectionString: base });
await setup.connect();
await setup.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
await setup.end();
const url = new URL(base);
url.searchParams.set('options', `-c search_path=${SCHEMA}`);
const db = await openMigratedDatabase({ databaseUrl: url.toString(), dataDir: ':memory:', demoContacts: 0 });
await loadOrgMetadata(db);

const company = (n: number) => `Company ${n % COMPANIES} Electrical Supply`;
const email = (n: number) => `sales${n}@company${n % COMPANIES}.example`;
const phone = (n: number) => `555-${String(n % 10_000_000).padStart(7, '0')}`;

const { rows } = await db.query<{ count: string }>(
  `SELECT count(*) AS count FROM record WHERE object_api_name = $1 AND id LIKE 'a1CB%'`,
  [OBJECT],
);
const have = Number(rows[0].count);
if (have < records) {
  const started = Date.now();
  process.stdout.write(`seeding ${records - have} records ... `);
  for (let from = have + 1; from <= records; from += 100_000) {
    const to = Math.min(records, from + 99_999);
    await db.query(
      `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
       SELECT 'a1CB' || lpad(n::text, 11, '0') || 'AAA', $1, '012000000000000AAA',
         jsonb_build_object('APT_Company_Name__c', 'Company ' || (n % $4) || ' Electrical Supply', 'APT_Email__c', 'sales' || n || '@company' || (n % $4) || '.example',
           'APT_Phone__c', '555-' || lpad((n % 10000000)::text, 7, '0'), 'APT_Country__c', 'United States', 'APT_Default_Contact__c', false, 'OwnerId', $5::text),
         now(), $5, now(), $5, now()
       FROM generate_series($2::int, $3::int) AS n`,
      [OBJECT, from, to, COMPANIES, ADMIN_USER_ID],
    );
  }
  await db.exec('ANALYZE record');
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const admin: Principal = { userId: ADMIN_USER_ID, isGuest: false, profile: profileNamed('System Administrator') };
const inputFor = (i: number) => {
  const n = 1 + Math.floor(Math.random() * records);
  const fields: Record<string, string> = { APT_Country__c: 'United States' };
  if (i % 3 === 0)
    Object.assign(fields, {
      APT_Company_Name__c: company(n).replace('Electrical', 'Electric'),
      APT_Email__c: email(n).toUpperCase(),
    });
  else if (i % 3 === 1)
    Object.assign(fields, {
      APT_Company_Name__c: 'Another Company',
      APT_Email__c: email(n),
      APT_Phone__c: `(${phone(n)})`,
    });
  else
    Object.assign(fields, {
      APT_Company_Name__c: company(n),
      APT_Email__c: `nobody${n}@nowhere.example`,
      APT_Phone__c: '555-9999999',
    });
  return { apiName: OBJECT, fields };
};

for (let i = 0; i < 50; i++) await getDuplicates(db, admin, inputFor(i)); // warm-up
const times: number[] = [];
let matched = 0;
for (let i = 0; i < calls; i++) {
  const input = inputFor(i);
  const start = performance.now();
  const answer = await getDuplicates(db, admin, input);
  times.push(performance.now() - start);
  if (answer.matches.length > 0) matched++;
}
times.sort((a, b) => a - b);
const at = (q: number) => percentile(times, q).toFixed(2);
console.log(
  `predupe on PostgreSQL, ${records} Contact Us records, ${calls} calls one at a time (${matched} with duplicates)`,
);
console.log(
  `p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${times[times.length - 1].toFixed(2)} ms  (target p99 <= 30 ms)`,
);
await db.close();
