/** Opens the database the environment names, with the data-directory lock for PGlite, migrated and seeded. */
import { loadOrgMetadata } from '../platform/metadata.ts';
import { seedDemoRecords } from '../platform/records/demo-records.ts';
import { DEMO_USERNAMES, seedDemoUsers, type DemoPasswords } from '../platform/users.ts';
import { seedContent } from '../storefront/content-seed.ts';
import { contactCount, seedContacts } from '../storefront/seed.ts';
import { openPglite, openPostgres, type Database } from './connection.ts';
import { lockDataDirectory } from './lock.ts';
import { migrate } from './migrate.ts';
import { usesDataDirectory, type DatabaseSettings } from './settings.ts';

export { settingsFromEnv, type DatabaseSettings } from './settings.ts';

export interface OpenOptions {
  /** The demo users' passwords; by default DEMO_ADMIN_PASSWORD and DEMO_USER_PASSWORD, else generated and shown once. */
  demoPasswords?: DemoPasswords;
  /** Where generated passwords are shown; by default the console. */
  log?: (message: string) => void;
}

function demoPasswordsFromEnv(env: NodeJS.ProcessEnv = process.env): DemoPasswords {
  return { admin: env.DEMO_ADMIN_PASSWORD || undefined, standard: env.DEMO_USER_PASSWORD || undefined };
}

export async function openDatabase(settings: DatabaseSettings, options: OpenOptions = {}): Promise<Database> {
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
    // Statistics for metadata just (re)loaded, so that lookups of picklist values go by primary key at once
    // (PGlite has no autovacuum to gather them, and PostgreSQL's may be off or late).
    if ((await loadOrgMetadata(db)).length > 0) await db.exec('ANALYZE sobject, sobject_field, record_type, picklist_value');
    if (settings.demoContacts > 0 && (await contactCount(db)) === 0) await seedContacts(db, settings.demoContacts);
    await seedContent(db);
    await seedDemoRecords(db);
    const generated = await seedDemoUsers(db, options.demoPasswords ?? demoPasswordsFromEnv());
    const log = options.log ?? ((message: string) => console.log(message));
    for (const key of ['admin', 'standard'] as const) {
      const password = generated?.[key];
      if (password) log(`Demo user ${DEMO_USERNAMES[key]} created with the password ${password} (shown once; it is stored only hashed).`);
    }
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
