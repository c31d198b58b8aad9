/**
 * Loads a dump (npm run backup) into an empty database: npm run restore -- <file>
 * The database is the server's: DATABASE_URL, or PGlite in DATA_DIR (default .data), which must be empty or
 * new. A target that holds data is refused and left as it was. Prints each table's row count, which the
 * restore has checked against the dump's.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { Database } from '../server/db/connection.ts';
import { DumpFormatError } from '../server/db/dump-format.ts';
import { DataDirectoryLockedError } from '../server/db/lock.ts';
import { openDatabaseAsFound } from '../server/db/open.ts';
import { RestoreRefusedError, restoreDump } from '../server/db/restore.ts';
import { settingsFromEnv, usesDataDirectory } from '../server/db/settings.ts';
import { countsTable, describeDatabase, dumpFileLines } from './lib/dumps.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const [file] = positionals;
if (positionals.length !== 1) {
  console.error('Usage: npm run restore -- <file>   (into DATABASE_URL, or PGlite in DATA_DIR)');
  process.exit(2);
}
if (!existsSync(file)) {
  console.error(`There is no file ${file}`);
  process.exit(2);
}
const settings = settingsFromEnv();
if (!settings.databaseUrl && !usesDataDirectory(settings)) {
  console.error('DATA_DIR is :memory:, which would be gone when the restore ends: name a directory');
  process.exit(2);
}

const target = describeDatabase(settings);
const began = performance.now();
let db: Database;
try {
  db = await openDatabaseAsFound(settings);
} catch (error) {
  if (!(error instanceof DataDirectoryLockedError)) throw error;
  console.error(
    `${error.message}\nA restore loads into an empty data directory: stop that server, or name another DATA_DIR.`,
  );
  process.exit(1);
}

try {
  console.log(`Restoring ${file} into ${target}`);
  const { header, counts } = await restoreDump(db, dumpFileLines(file));
  const tables = Object.keys(header.tables);
  console.log(countsTable(['dump', 'restored'], tables, [header.tables, counts]));
  console.log(
    `Restored in ${((performance.now() - began) / 1000).toFixed(1)} s: every table holds the rows the dump counts (made ${header.createdAt} from ${header.source}, migration ${header.migration}).`,
  );
} catch (error) {
  const known = error instanceof RestoreRefusedError || error instanceof DumpFormatError;
  console.error(`The restore into ${target} failed: ${(error as Error).message}`);
  if (!known) console.error(error);
  process.exitCode = 1;
} finally {
  await db.close();
}
