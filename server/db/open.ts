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
    checkpoints = setInterval(() => void db.exec('CHECKPOINT').catch(() => undefined), PGLITE_CHECKPOINT_INTERVAL_MS);
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
