/**
 * The control channel of a server on a PGlite data directory: a small HTTP server on a Unix domain socket in
 * the directory (CONTROL_SOCKET, mode 0600), which answers one request, GET /dump, with a dump of the database
 * (dump.ts). PGlite lets one process open a data directory, and the server holds it (lock.ts): this is how
 * `npm run backup` gets a dump while the server runs. Only local processes of the directory's owner can
 * reach it; nothing is reachable over the network.
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import type { Database } from './connection.ts';
import { DumpCutShortError, writeDump } from './dump.ts';

const CONTROL_SOCKET = '.control.sock';
export const DUMP_PATH = '/dump';

/** The longest path a Unix domain socket may have on Linux (sun_path holds 108 bytes with the final NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

/** A dump whose reader has taken nothing for this long is given up, so that a stalled backup cannot hold PGlite. */
const IDLE_TIMEOUT_MS = 60_000;

export function controlSocketPath(dataDir: string): string {
  return join(dataDir, CONTROL_SOCKET);
}

interface ControlChannel {
  /** Stops listening, removes the socket, and ends any dump under way (its transaction rolled back). */
  close(): Promise<void>;
}

/**
 * Listens on the control socket of dataDir, replacing a socket left by a process that was killed (the caller
 * holds the directory's lock, so no live process owns it). Null when the socket cannot be made: the server
 * runs without it, and a backup then needs the server stopped.
 */
export async function openControlChannel(
  dataDir: string,
  db: Database,
  log: (message: string) => void = console.error,
): Promise<ControlChannel | null> {
  const path = controlSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    log(
      `No control socket: its path ${path} is longer than a Unix socket's may be; npm run backup needs the server stopped.`,
    );
    return null;
  }
  const dumps = new Set<Promise<unknown>>();
  const server: Server = createServer((req, res) => {
    if (req.url !== DUMP_PATH) return void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
    if (req.method !== 'GET')
      return void res.writeHead(405, { Allow: 'GET', 'Content-Type': 'text/plain' }).end('Method not allowed\n');
    res.setHeader('Content-Type', 'application/x-ndjson');
    const dump = writeDump(db, res).catch((error: Error) => {
      // Before the first byte the reader is told why; after it, the cut connection says the dump is not whole.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${error.message}\n`);
      else res.destroy();
      if (!(error instanceof DumpCutShortError)) log(`A dump over the control socket failed: ${error.message}`);
    });
    dumps.add(dump);
    void dump.finally(() => dumps.delete(dump));
  });
  server.timeout = IDLE_TIMEOUT_MS;
  try {
    rmSync(path, { force: true });
    await new Promise<void>((listening, fail) => {
      server.once('error', fail);
      server.listen(path, () => {
        server.off('error', fail);
        listening();
      });
    });
    chmodSync(path, 0o600);
  } catch (error) {
    server.close();
    try {
      rmSync(path, { force: true });
    } catch {
      // Whatever is there is not ours to remove.
    }
    log(`No control socket at ${path} (${(error as Error).message}); npm run backup needs the server stopped.`);
    return null;
  }
  // A failure of the listening socket later must not end the server: the channel is given up.
  server.on('error', (error) => log(`The control socket failed: ${error.message}`));
  return {
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      server.closeAllConnections();
      await closed;
      await Promise.allSettled([...dumps]);
      rmSync(path, { force: true });
    },
  };
}

export class NoControlChannelError extends Error {}

/**
 * Asks the server on dataDir for a dump over its control socket: the response, whose body is the dump's
 * lines. NoControlChannelError when no server listens there.
 */
export function requestDump(dataDir: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: controlSocketPath(dataDir), path: DUMP_PATH, method: 'GET' }, (response) => {
      if (response.statusCode === 200) return resolve(response);
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('error', reject);
      response.on('end', () =>
        reject(new Error(`The server could not make the dump: ${text.trim() || `status ${response.statusCode}`}`)),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')
        reject(new NoControlChannelError(`No server listens on ${controlSocketPath(dataDir)}`));
      else reject(error);
    });
    req.end();
  });
}
