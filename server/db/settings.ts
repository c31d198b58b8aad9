/** Which database the environment names. Light on purpose: main.ts reads it before loading the engine. */
import { resolve } from 'node:path';

/** How many contacts a first start seeds, unless DEMO_CONTACTS says otherwise. */
const DEFAULT_DEMO_CONTACTS = 2400;

export interface DatabaseSettings {
  /** A PostgreSQL connection string; when absent, embedded PGlite in dataDir. */
  databaseUrl?: string;
  /** PGlite's data directory; ':memory:' for a database that lives only as long as the process. */
  dataDir: string;
  /** Contacts to seed when the database has none; 0 for none. */
  demoContacts: number;
  /** For PGlite in memory: a data directory's image to start from (see openPglite); tests only. */
  pgliteImage?: Blob;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseSettings {
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR === ':memory:' ? ':memory:' : resolve(env.DATA_DIR || '.data'),
    demoContacts: env.DEMO_CONTACTS === undefined ? DEFAULT_DEMO_CONTACTS : Number(env.DEMO_CONTACTS),
  };
}

/** Whether the settings use PGlite in a data directory (which one process at a time may open). */
export function usesDataDirectory(settings: DatabaseSettings): boolean {
  return !settings.databaseUrl && settings.dataDir !== ':memory:';
}
