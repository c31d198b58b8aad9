/**
 * Fills the database with demo contacts: npm run seed -- --contacts 1000000
 * Uses the same database as the server (DATABASE_URL, or PGlite in DATA_DIR); contacts already there are
 * kept, so a run tops the set up to the number asked for.
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import type { Database } from '../server/db/connection.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { openDatabase, settingsFromEnv } from '../server/bootstrap.ts';
import { contactCount, seedContacts } from '../server/storefront/seed.ts';

const { values } = parseArgs({ options: { contacts: { type: 'string', default: '1000000' } } });
const target = Number(values.contacts);
if (!Number.isSafeInteger(target) || target < 1 || target > 50_000_000) {
  console.error(`--contacts must be a whole number from 1 to 50000000, not ${values.contacts}`);
  process.exit(2);
}

const settings = { ...settingsFromEnv(), demoContacts: 0 };
let db: Database;
try {
  db = await openDatabase(settings);
} catch (error) {
  if (error instanceof DataDirectoryLockedError) {
    console.error(`${error.message}\nStop the server before seeding its data directory.`);
    process.exit(1);
  }
  throw error;
}

const start = await contactCount(db);
if (start >= target) {
  console.log(`The database already has ${start} contacts.`);
} else {
  const bar = new cliProgress.SingleBar(
    {
      format: 'contacts {bar} {percentage}% | {value}/{total} | {rate}/s | eta {eta_formatted}',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  const began = Date.now();
  bar.start(target, start, { rate: 0 });
  await seedContacts(db, target, (done) =>
    bar.update(done, { rate: Math.round((done - start) / ((Date.now() - began) / 1000)) }),
  );
  bar.stop();
  // Fresh statistics so that the planner sees the new rows at once.
  await db.query('ANALYZE record');
  console.log(`Seeded ${target - start} contacts in ${((Date.now() - began) / 1000).toFixed(1)} s (${target} in all).`);
}
await db.close();
