/**
 * Moves the PGlite database of DATA_DIR (default .data) into an empty PostgreSQL database:
 * npm run move-to-postgres -- <postgres-url>
 * A backup piped into a restore in one process, no file between: every table's rows, checked by count against
 * the snapshot they were read from, which this prints side by side. The data directory is only read. Stop the
 * server first: one still running makes the dump itself, and what it writes afterwards stays in PGlite.
 */
import { parseArgs } from 'node:util';
import type { Database } from '../server/db/connection.ts';
import { DumpFormatError, linesOf } from '../server/db/dump-format.ts';
import { openDatabaseAsFound } from '../server/db/open.ts';
import { RestoreRefusedError, restoreDump } from '../server/db/restore.ts';
import { settingsFromEnv } from '../server/db/settings.ts';
import { countsTable, describeDatabase, openDumpSource } from './lib/dumps.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const [url] = positionals;
if (positionals.length !== 1 || !/^postgres(ql)?:\/\//.test(url)) {
  console.error(
    'Usage: npm run move-to-postgres -- postgres://user@host:5432/database   (moves PGlite in DATA_DIR there)',
  );
  process.exit(2);
}
if (process.env.DATABASE_URL) {
  console.error(
    'DATABASE_URL is set: the move reads PGlite in DATA_DIR; unset DATABASE_URL and give the target as the argument.',
  );
  process.exit(2);
}
const from = settingsFromEnv();
const to = { ...from, databaseUrl: url };

const began = performance.now();
let target: Database | undefined;
try {
  target = await openDatabaseAsFound(to);
  const source = await openDumpSource(from);
  console.log(`Moving ${source.from} into ${describeDatabase(to)}`);
  if (source.viaServer)
    console.warn(
      'The server is running on it: what it writes from now on stays in PGlite. Stop it, then start it with DATABASE_URL.',
    );
  let result;
  try {
    result = await restoreDump(target, linesOf(source.stream));
  } finally {
    source.stream.destroy();
    await source.done.catch(() => undefined);
  }
  const tables = Object.keys(result.header.tables);
  console.log(countsTable(['PGlite', 'PostgreSQL'], tables, [result.header.tables, result.counts]));
  console.log(
    `Moved in ${((performance.now() - began) / 1000).toFixed(1)} s: every table holds in PostgreSQL the rows it held in PGlite.`,
  );
  console.log(`Start the server with DATABASE_URL=<the same URL>; ${from.dataDir} is left as it was.`);
} catch (error) {
  const known = error instanceof RestoreRefusedError || error instanceof DumpFormatError;
  console.error(`The move failed: ${(error as Error).message}`);
  if (!known) console.error(error);
  process.exitCode = 1;
} finally {
  await target?.close();
}
