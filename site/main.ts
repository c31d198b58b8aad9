/** Starts the server: the database from the environment, then HTTP on HOST:PORT. */
import type { Database } from '../server/db/connection.ts';
import { assertDataDirectoryFree, DataDirectoryLockedError } from '../server/db/lock.ts';
import { settingsFromEnv, usesDataDirectory } from '../server/db/settings.ts';

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

const { serve } = await import('@hono/node-server');
const { createSite } = await import('./app.ts');
const { openDatabase } = await import('../server/bootstrap.ts');
const { limitOptionsFromEnv } = await import('../server/http/limits.ts');
const { sessionSettings } = await import('../server/http/session.ts');
const { clientErrorListener } = await import('../server/http/errors.ts');
const { apiSecurityHeaders } = await import('../server/http/security-headers.ts');
let limits: ReturnType<typeof limitOptionsFromEnv>;
let session: ReturnType<typeof sessionSettings>;
try {
  limits = limitOptionsFromEnv();
  session = sessionSettings({});
} catch (error) {
  refuse((error as Error).message);
}

let db: Database;
try {
  db = await openDatabase(settings);
} catch (error) {
  if (error instanceof DataDirectoryLockedError) refuse(error.message);
  throw error;
}

// Node's own limit on the request line and headers (its default), stated so that the answers above it can say it.
const MAX_HEADER_BYTES = 16 * 1024;
const server = serve({ fetch: createSite(db, { limits, session }).fetch, port, hostname, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES } }, (info) => {
  const where = settings.databaseUrl ? 'PostgreSQL' : `PGlite in ${settings.dataDir}`;
  console.log(`Contact Us storefront on http://${hostname}:${info.port} (${where}); API docs at /docs`);
});
// What Node refuses before the app sees it (an address over the limit, say) is answered in the site's way:
// a short page for a browser, the API's error shape for an API path, instead of an empty 431.
server.on('clientError', clientErrorListener({ limitBytes: MAX_HEADER_BYTES, headers: apiSecurityHeaders(false) }));
server.on('error', async (error: NodeJS.ErrnoException) => {
  await db.close().catch(() => undefined);
  if (error.code === 'EADDRINUSE') refuse(`Port ${port} on ${hostname} is in use: stop what listens there, or set PORT.`);
  refuse(`The server could not listen on ${hostname}:${port}: ${error.message}`);
});

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  server.close();
  await db.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
