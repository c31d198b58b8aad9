/**
 * What field history (migration 027) costs a write: npm run bench:history [-- --databases postgresql,pglite
 * --slices 6 --slice 200]
 *
 * For one database of each kind (PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres, in a
 * throw-away schema; PGlite in memory), seeded with the 2,400 demo contacts, it times the domain call PATCH
 * /records/{id} makes (updateRecord, without HTTP), one at a time as the administrator, each changing one
 * tracked field (the phone) of another representative, in slices that alternate the history triggers on and off
 * (after one warm-up slice of each), so that both meet the same background load. Prints, per database and
 * setting, the updates timed, their mean, p50 and p99, and the history rows written.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Database } from '../server/db/connection.ts';
import { openDatabase } from '../server/bootstrap.ts';
import { enforceDuplicateRules } from '../server/platform/duplicates/match.ts';
import { ADMIN_USER_ID, profileNamed, type Principal } from '../server/platform/core/principal.ts';
import { updateRecord } from '../server/platform/records/update.ts';
import { ascending, percentile } from './lib/percentile.ts';

const { values } = parseArgs({
  options: {
    databases: { type: 'string', default: 'postgresql,pglite' },
    slices: { type: 'string', default: '6' },
    slice: { type: 'string', default: '200' },
  },
});
const SLICES = Number(values.slices);
const SLICE = Number(values.slice);
const TRIGGERS = ['record_history_inserted', 'record_history_updated', 'record_history_deleted'];
const admin: Principal = { userId: ADMIN_USER_ID, isGuest: false, profile: profileNamed('System Administrator') };

async function opened(kind: string): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite')
    return { db: await openDatabase({ dataDir: ':memory:', demoContacts: 2400 }), drop: async () => {} };
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const schema = `bench_history_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: ':memory:', demoContacts: 2400 });
  return { db, drop: () => admin(`DROP SCHEMA ${schema} CASCADE`) };
}

for (const kind of values.databases.split(',')) {
  const { db, drop } = await opened(kind);
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM record WHERE object_api_name = 'APT_Contact_Us__c' ORDER BY id`,
  );
  const ids = rows.map((row) => row.id);
  let written = 0;
  const times = { on: [] as number[], off: [] as number[] };
  const slice = async (setting: 'on' | 'off', timed: boolean) => {
    const change = setting === 'on' ? 'ENABLE' : 'DISABLE';
    await db.exec(TRIGGERS.map((name) => `ALTER TABLE record ${change} TRIGGER ${name};`).join('\n'));
    for (let i = 0; i < SLICE; i++, written++) {
      const phone = `512-555-${String(written % 10_000).padStart(4, '0')}`;
      const started = performance.now();
      await updateRecord(
        db,
        admin,
        ids[written % ids.length],
        { fields: { APT_Phone__c: phone } },
        { beforeWrite: enforceDuplicateRules },
      );
      if (timed) times[setting].push(performance.now() - started);
    }
  };
  await slice('on', false);
  await slice('off', false);
  for (let round = 0; round < SLICES; round++) {
    const first = round % 2 === 0 ? 'on' : 'off';
    await slice(first, true);
    await slice(first === 'on' ? 'off' : 'on', true);
  }
  await db.exec(TRIGGERS.map((name) => `ALTER TABLE record ENABLE TRIGGER ${name};`).join('\n'));
  for (const setting of ['off', 'on'] as const) {
    const list = ascending(times[setting]);
    const mean = list.reduce((sum, time) => sum + time, 0) / list.length;
    console.log(
      `${kind}, history ${setting}: ${list.length} updates, mean ${mean.toFixed(2)} ms, p50 ${percentile(list, 0.5).toFixed(2)} ms, p99 ${percentile(list, 0.99).toFixed(2)} ms`,
    );
  }
  const history = await db.query<{ count: string }>(
    `SELECT count(*) AS count FROM record WHERE object_api_name = 'APT_Contact_Us__History'`,
  );
  console.log(`${kind}: ${history.rows[0].count} history rows (2,400 of them the demo contacts' "created")`);
  await db.close();
  await drop();
}
