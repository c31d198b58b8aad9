/** Opens the database the settings name, with the data-directory lock for PGlite, and migrates it. */
import { openPglite, openPostgres, type Database } from './connection.ts';
import { lockDataDirectory } from './lock.ts';
import { migrate } from './migrate.ts';
import { usesDataDirectory, type DatabaseSettings } from './settings.ts';

/** The database, migrated; closing it releases the data directory's lock. */
export async function openMigratedDatabase(settings: DatabaseSettings): Promise<Database> {
  let release = () => {};
  let db: Database;
  if (settings.databaseUrl) db = await openPostgres(settings.databaseUrl);
  else if (!usesDataDirectory(settings)) db = await openPglite(undefined);
  else {
    release = lockDataDirectory(settings.dataDir);
    try {
      db = await openPglite(settings.dataDir);
    } catch (error) {
      release();
      throw error;
    }
  }
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    release();
    throw error;
  }
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      release();
    },
  };
}
