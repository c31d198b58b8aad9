/** Opens the database the settings name, with the data-directory lock for PGlite, and migrates it. */
import { openPostgres, type Database } from './connection.ts';
import { openPglite } from './pglite.ts';
import { lockDataDirectory } from './lock.ts';
import { migrate } from './migrate.ts';
import { usesDataDirectory, type DatabaseSettings } from './settings.ts';

/**
 * PGlite runs PostgreSQL in single-user mode, without the checkpointer: left alone it checkpoints only when
 * the write-ahead log outgrows max_wal_size (1 GB), so a process killed with SIGKILL leaves every write since
 * it opened the directory (the first start's seeding included) to be replayed at the next start, which then
 * takes seconds, and longer with every kill. A checkpoint every so often keeps the replay short.
 */
const PGLITE_CHECKPOINT_INTERVAL_MS = 15_000;

/**
 * Nor does PGlite run autovacuum. Each update leaves the row's old version, and a new entry in every index it
 * cannot update in place (each GIN index of the record table, at every update of a record), which only VACUUM
 * clears for reuse. Left alone, one Account updated 12,000 times grew the record and mru_record tables by
 * 21.7 MB, and went on growing; vacuumed after every 1,000 such transactions, by 6.2 MB, reached after the first
 * 3,000, at 46 ms a vacuum (docs/architecture.md, "PGlite's upkeep"). So before each checkpoint the tables
 * written to are vacuumed if at least this many transactions have written since the last vacuum.
 */
export const VACUUM_AFTER_TRANSACTIONS = 1_000;

/**
 * The age of the database's oldest unfrozen transaction id past which the whole database is vacuumed rather
 * than the tables written to: tables no longer written to are then vacuumed too, so that the database's oldest
 * transaction id moves on long before PostgreSQL's wraparound limit (about 2 billion), as autovacuum's
 * anti-wraparound vacuums would make it (autovacuum_freeze_max_age, 200 million, by default).
 */
const WHOLE_VACUUM_AGE = 100_000_000;

/**
 * Vacuums what writes left behind if at least VACUUM_AFTER_TRANSACTIONS transactions have written since `since`
 * (the transaction counter this returned last time; 0n: since the database began). Returns the counter to pass
 * next.
 *
 * Only the tables with dead or new rows since their last vacuum are vacuumed (PostgreSQL's statistics count
 * them, as autovacuum reads them), one statement each, so that queries waiting for the engine run between
 * them. A whole-database VACUUM also visits every other table and catalog (some 180 relations): 40 to 90 ms
 * more, beside the 20 to 70 ms of the record table's own, during which every query waits (docs/architecture.md,
 * "PGlite's upkeep"). Past WHOLE_VACUUM_AGE the whole database is vacuumed.
 */
export async function vacuumIfWritten(
  db: Database,
  since: bigint,
  after: number = VACUUM_AFTER_TRANSACTIONS,
  wholeAge: number = WHOLE_VACUUM_AGE,
): Promise<bigint> {
  const nextTransaction = async () =>
    BigInt(
      (await db.query<{ next: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next')).rows[0].next,
    );
  if ((await nextTransaction()) - since < BigInt(after)) return since;
  const { age } = (
    await db.query<{ age: number }>(
      'SELECT age(datfrozenxid) AS age FROM pg_database WHERE datname = current_database()',
    )
  ).rows[0];
  if (age > wholeAge) await db.exec('VACUUM');
  else for (const table of await tablesWritten(db)) await db.exec(`VACUUM ${table}`);
  return nextTransaction();
}

/** The tables (catalogs included) with dead or new rows since their last vacuum, as quoted names. */
async function tablesWritten(db: Database): Promise<string[]> {
  // Statistics wait up to a second in the session before they are counted; this has them counted first.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_all_tables
      WHERE n_dead_tup > 0 OR n_ins_since_vacuum > 0 ORDER BY n_dead_tup DESC`,
  );
  return rows.map((row) => row.name);
}

/**
 * The database as it is, not migrated (a backup reads it as it finds it; a restore migrates it step by step);
 * for PGlite in a data directory, with the directory's lock, which closing it releases.
 */
export async function openDatabaseAsFound(settings: DatabaseSettings): Promise<Database> {
  if (settings.databaseUrl) return openPostgres(settings.databaseUrl);
  if (!usesDataDirectory(settings)) return openPglite(undefined, settings.pgliteImage);
  const release = lockDataDirectory(settings.dataDir);
  let db: Database;
  try {
    db = await openPglite(settings.dataDir);
  } catch (error) {
    release();
    throw error;
  }
  return {
    ...db,
    close: async () => {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

/** The database, migrated; closing it releases the data directory's lock. */
export async function openMigratedDatabase(settings: DatabaseSettings): Promise<Database> {
  const db = await openDatabaseAsFound(settings);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  let checkpoints: NodeJS.Timeout | undefined;
  if (db.kind === 'pglite' && usesDataDirectory(settings)) {
    let vacuumed = 0n;
    let busy = false;
    checkpoints = setInterval(() => {
      if (busy) return;
      busy = true;
      void (async () => {
        // A vacuum that fails is tried again at the next tick; the checkpoint is made either way.
        vacuumed = await vacuumIfWritten(db, vacuumed).catch(() => vacuumed);
        await db.exec('CHECKPOINT');
      })()
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, PGLITE_CHECKPOINT_INTERVAL_MS);
    checkpoints.unref();
  }
  return {
    ...db,
    close: async () => {
      clearInterval(checkpoints);
      await db.close();
    },
  };
}
