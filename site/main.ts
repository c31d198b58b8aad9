/** Starts the server: the database from the environment, then HTTP on HOST:PORT. */
import type { Database } from '../server/db/connection.ts';
import { assertDataDirectoryFree, DataDirectoryLockedError } from '../server/db/lock.ts';
import { settingsFromEnv, usesDataDirectory } from '../server/db/settings.ts';
import { limitHeapGrowth } from '../server/heap-growth.ts';

// Before the PGlite worker's thread starts: it takes the process's heap settings as it does.
limitHeapGrowth();

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const settings = settingsFromEnv();

function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

// A data directory in use by another server is refused before the database engine and the app are
// loaded, which takes most of a second; the lock itself is taken when the database opens.
try {
  if (usesDataDirectory(settings)) assertDataDirectoryFree(settings.dataDir);
} catch (error) {
  if (error instanceof DataDirectoryLockedError) refuse(error.message);
  throw error;
}

// The database is opened first, and the rest of the app loads meanwhile: PGlite compiles its WebAssembly off
// the main thread, so the two overlap (a restart after kill -9 serves again that much sooner).
const { openMigratedDatabase } = await import('../server/db/open.ts');
const opening = openMigratedDatabase(settings);
opening.catch(() => undefined); // Its failure is handled where it is awaited, below.
const { prepareDatabase } = await import('../server/bootstrap.ts');
const { createSite } = await import('./app.ts');
const { limitOptionsFromEnv, trustProxyOf } = await import('../server/http/limits/limits.ts');
const { sessionSettings } = await import('../server/http/sessions/session.ts');
const { connectionOptionsFromEnv, serveSite } = await import('../server/http/connections/serve.ts');
const { openControlChannel } = await import('../server/db/control-channel.ts');
const { loadMallocTrim, trimWhenQuiet } = await import('../server/malloc-trim.ts');
// koffi and the C library load (some 30 ms) while the database opens; never rejects (null where there is none).
const loadingMallocTrim = loadMallocTrim();
let limits: ReturnType<typeof limitOptionsFromEnv>;
let session: ReturnType<typeof sessionSettings>;
let connections: ReturnType<typeof connectionOptionsFromEnv>;
try {
  limits = limitOptionsFromEnv();
  session = sessionSettings({});
  connections = connectionOptionsFromEnv();
} catch (error) {
  refuse((error as Error).message);
}

let db: Database;
try {
  db = await prepareDatabase(await opening, settings);
} catch (error) {
  if (error instanceof DataDirectoryLockedError) refuse(error.message);
  throw error;
}

// On a PGlite data directory, which no other process may open, backups ask this process for the dump.
const control = usesDataDirectory(settings) ? await openControlChannel(settings.dataDir, db) : null;

const mallocTrim = await loadingMallocTrim;
// The deadlines and caps on connections, and the answers to what Node refuses, are serveSite's.
const site = createSite(db, { limits, session });
const server = serveSite({ fetch: site.fetch, port, hostname, connections, trustProxy: trustProxyOf({}) }, (info) => {
  const where = settings.databaseUrl ? 'PostgreSQL' : `PGlite in ${settings.dataDir}`;
  console.log(`Contact Us storefront on http://${hostname}:${info.port} (${where}); API docs at /docs`);
});
// The memory that threads freed (while starting, under a load) goes back to the system once requests pause.
if (mallocTrim) trimWhenQuiet(server, mallocTrim);
server.on('error', async (error: NodeJS.ErrnoException) => {
  await control?.close().catch(() => undefined);
  await db.close().catch(() => undefined);
  if (error.code === 'EADDRINUSE')
    refuse(`Port ${port} on ${hostname} is in use: stop what listens there, or set PORT.`);
  refuse(`The server could not listen on ${hostname}:${port}: ${error.message}`);
});

/** How long requests under way may take to finish once the server is told to stop. */
const STOP_GRACE_MS = 10_000;

let stopping = false;
/**
 * A clean stop: no new connections, the requests under way answered (idle keep-alive connections closed as
 * they become idle; any left after STOP_GRACE_MS cut), a backup under way on the control socket ended (it is
 * easily made again) and the socket removed, then the database closed (PGlite: checkpointed, so that the next
 * start has nothing to recover), then exit 0.
 */
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  const closed = new Promise<void>((done) => server.close(() => done()));
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
  server.closeIdleConnections();
  await closed;
  clearInterval(idle);
  clearTimeout(cut);
  await control?.close();
  await db.close();
  console.log(`${signal}: stopped`);
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
