/**
 * What the backup, restore and move-to-postgres scripts share: where a dump comes from (the running server's
 * control socket, or the database opened directly), reading a dump file (gzipped or not), and printing counts.
 */
import { closeSync, createReadStream, existsSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { NoControlChannelError, controlSocketPath, requestDump } from '../../server/db/control-channel.ts';
import { linesOf } from '../../server/db/dump-format.ts';
import { writeDump } from '../../server/db/dump.ts';
import { DataDirectoryLockedError } from '../../server/db/lock.ts';
import { openDatabaseAsFound } from '../../server/db/open.ts';
import { usesDataDirectory, type DatabaseSettings } from '../../server/db/settings.ts';

export interface DumpSource {
  /** The dump's lines, as text. */
  stream: Readable;
  /** Where it comes from, for the messages. */
  from: string;
  /** Whether the server running on the data directory makes it (its writes go on meanwhile). */
  viaServer: boolean;
  /** Settles once the dump is written and the database it was read from is closed. */
  done: Promise<void>;
}

/** The database the settings name, for messages: never a connection string's password. */
export function describeDatabase(settings: DatabaseSettings): string {
  if (!settings.databaseUrl) return `PGlite in ${settings.dataDir}`;
  const url = new URL(settings.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}${url.searchParams.has('options') ? ` (${url.searchParams.get('options')})` : ''}`;
}

/**
 * A dump of the database the settings name. On a PGlite data directory that a server holds, the server makes
 * it (its control socket); otherwise the database is opened here, PGlite's directory with its lock.
 */
export async function openDumpSource(settings: DatabaseSettings): Promise<DumpSource> {
  if (!settings.databaseUrl) {
    if (!usesDataDirectory(settings))
      throw new Error('DATA_DIR is :memory:, which no other process can read: there is nothing to back up');
    try {
      const response = await requestDump(settings.dataDir);
      const done = new Promise<void>((resolve, reject) => {
        response.once('end', resolve);
        response.once('error', reject);
        response.once('aborted', () => reject(new Error('The server ended the dump before it was whole')));
      });
      done.catch(() => undefined); // Its failure reaches the reader of the stream too.
      return {
        stream: response.setEncoding('utf8'),
        from: `the server running on ${settings.dataDir}`,
        viaServer: true,
        done,
      };
    } catch (error) {
      if (!(error instanceof NoControlChannelError)) throw error;
    }
    if (!existsSync(join(settings.dataDir, 'PG_VERSION')))
      throw new Error(`There is no database in ${settings.dataDir} (DATA_DIR)`);
  }
  let db;
  try {
    db = await openDatabaseAsFound(settings);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError)
      throw new Error(
        `${error.message}\nThat server does not answer on ${controlSocketPath(settings.dataDir)} (a version without a control socket?): stop it, then back up.`,
        { cause: error },
      );
    throw error;
  }
  const stream = new PassThrough({ encoding: 'utf8' });
  const opened = db;
  const done = writeDump(opened, stream)
    .then(
      () => undefined,
      (error: Error) => {
        stream.destroy(error);
        throw error;
      },
    )
    .finally(() => opened.close());
  done.catch(() => undefined); // Its failure reaches the reader of the stream too.
  return { stream, from: describeDatabase(settings), viaServer: false, done };
}

/** Whether a file begins as gzip does. */
function isGzipped(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** The lines of a dump file, gzipped (as npm run backup writes it) or not. */
export function dumpFileLines(file: string): AsyncIterable<string> {
  const raw = createReadStream(file);
  let text: Readable = raw;
  if (isGzipped(file)) {
    const gunzip = createGunzip();
    raw.on('error', (error) => gunzip.destroy(error));
    text = raw.pipe(gunzip);
  }
  return linesOf(text.setEncoding('utf8'));
}

/** A table of row counts per table, one or more columns of them, for the console. */
export function countsTable(headings: string[], tables: string[], columns: Record<string, number>[]): string {
  const width = Math.max(...tables.map((table) => table.length), 'table'.length);
  const cells = (values: string[]) =>
    values.map((value, index) => value.padStart(Math.max(headings[index].length, 10))).join('  ');
  return [
    `${'table'.padEnd(width)}  ${cells(headings)}`,
    ...tables.map(
      (table) =>
        `${table.padEnd(width)}  ${cells(columns.map((counts) => (counts[table] ?? 0).toLocaleString('en-US')))}`,
    ),
  ].join('\n');
}
