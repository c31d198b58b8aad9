/**
 * Start-up of the database: opened and migrated (db/open.ts), then the org's metadata loaded and the demo
 * data seeded where it is missing.
 */
import { loadOrgMetadata } from './platform/metadata.ts';
import { loadPlaces } from './storefront/places.ts';
import { seedDemoRecords } from './platform/records/demo-records.ts';
import { DEMO_USERNAMES, seedDemoUsers, type DemoPasswords } from './platform/users.ts';
import { seedContent } from './content/seed.ts';
import { seedTheme } from './platform/themes.ts';
import { contactCount, seedContacts } from './storefront/seed.ts';
import type { Database } from './db/connection.ts';
import { openMigratedDatabase } from './db/open.ts';
import type { DatabaseSettings } from './db/settings.ts';

export { settingsFromEnv, type DatabaseSettings } from './db/settings.ts';

interface OpenOptions {
  /** The demo users' passwords; by default DEMO_ADMIN_PASSWORD and DEMO_USER_PASSWORD, else generated and shown once. */
  demoPasswords?: DemoPasswords;
  /** Where generated passwords are shown; by default the console. */
  log?: (message: string) => void;
}

function demoPasswordsFromEnv(env: NodeJS.ProcessEnv = process.env): DemoPasswords {
  return { admin: env.DEMO_ADMIN_PASSWORD || undefined, standard: env.DEMO_USER_PASSWORD || undefined };
}

export async function openDatabase(settings: DatabaseSettings, options: OpenOptions = {}): Promise<Database> {
  return prepareDatabase(await openMigratedDatabase(settings), settings, options);
}

/** A database just opened and migrated, made ready: the org's metadata loaded, the demo data seeded where missing. */
export async function prepareDatabase(
  db: Database,
  settings: DatabaseSettings,
  options: OpenOptions = {},
): Promise<Database> {
  try {
    // Statistics for metadata just (re)loaded, so that lookups of picklist values go by primary key at once
    // (PGlite has no autovacuum to gather them, and PostgreSQL's may be off or late).
    if ((await loadOrgMetadata(db)).length > 0)
      await db.exec('ANALYZE sobject, sobject_field, record_type, picklist_value');
    await loadPlaces(db);
    if (settings.demoContacts > 0 && (await contactCount(db)) === 0) await seedContacts(db, settings.demoContacts);
    await seedContent(db);
    await seedTheme(db);
    await seedDemoRecords(db);
    const generated = await seedDemoUsers(db, options.demoPasswords ?? demoPasswordsFromEnv());
    // PGlite: what start-up wrote (seeding, metadata) is checkpointed at once, so that a process killed from
    // now on does not leave it to be replayed at the next start (db/open.ts).
    if (db.kind === 'pglite') await db.exec('CHECKPOINT');
    const log = options.log ?? ((message: string) => console.log(message));
    for (const key of ['admin', 'standard'] as const) {
      const password = generated?.[key];
      if (password)
        log(
          `Demo user ${DEMO_USERNAMES[key]} created with the password ${password} (shown once; it is stored only hashed).`,
        );
    }
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  return db;
}
