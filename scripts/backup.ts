/**
 * Writes a dump of the database, gzipped, to a file: npm run backup [-- <file>]
 * (default: backup-<date and time>.jsonl.gz here). The database is the server's (DATABASE_URL, or PGlite in
 * DATA_DIR). On a PGlite data directory that a server is running on, the server makes the dump, through its
 * control socket; otherwise the database is opened here. The dump is one consistent snapshot
 * (server/db/dump.ts); it is written under a name of its own and renamed to the file once it is whole.
 */
import { existsSync, renameSync, rmSync, statSync, createWriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { parseHeader } from '../server/db/dump-format.ts';
import { settingsFromEnv } from '../server/db/settings.ts';
import { countsTable, dumpFileLines, openDumpSource } from './lib/dumps.ts';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length > 1) {
  console.error('Usage: npm run backup [-- <file>]');
  process.exit(2);
}
const file = resolve(
  positionals[0] ?? `backup-${new Date().toISOString().replace(/:/g, '-').replace(/\..*/, '')}.jsonl.gz`,
);
if (existsSync(file)) {
  console.error(`${file} exists already: name another file.`);
  process.exit(1);
}
const partial = `${file}.partial`;

const began = performance.now();
try {
  const source = await openDumpSource(settingsFromEnv());
  console.log(`Backing up ${source.from} to ${file}`);
  await pipeline(source.stream, createGzip(), createWriteStream(partial));
  await source.done;
  renameSync(partial, file);
} catch (error) {
  rmSync(partial, { force: true });
  console.error(`The backup failed: ${(error as Error).message}`);
  process.exit(1);
}
const seconds = (performance.now() - began) / 1000;

const lines = dumpFileLines(file)[Symbol.asyncIterator]();
const header = parseHeader((await lines.next()).value);
await lines.return?.();
const tables = Object.keys(header.tables);
console.log(countsTable(['rows'], tables, [header.tables]));
const size = statSync(file).size;
console.log(`Backed up in ${seconds.toFixed(1)} s: ${(size / 1e6).toFixed(2)} MB, migration ${header.migration}.`);
