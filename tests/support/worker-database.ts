/**
 * Vitest setupFiles: each worker of a run gets a PostgreSQL database of its own, so that test files running side
 * by side never meet. Their schemas are apart already (startTestServer makes one per server), but PostgreSQL's
 * notifications (LISTEN/NOTIFY, which keep every server's caches current) reach every session of a database:
 * one file's writes would evict another file's caches. TEST_DATABASE_URL names the database the machine offers;
 * in worker n it names `<that database>_worker_<n>` on the same server, made on first use and kept for later
 * runs. Processes the tests spawn inherit it.
 */
import pg from 'pg';

const GIVEN = 'TEST_DATABASE_URL';
/** The URL as the run was given it, kept once the worker's own replaces it. */
const BASE = 'TEST_DATABASE_BASE_URL';

/** The URL of worker `poolId`'s database on the server `url` names. */
function workerDatabaseUrl(url: string, poolId: string): URL {
  const worker = new URL(url);
  const name = decodeURIComponent(worker.pathname.slice(1)) || 'postgres';
  worker.pathname = `/${encodeURIComponent(`${name}_worker_${poolId}`)}`;
  return worker;
}

async function ensureDatabase(baseUrl: string, workerUrl: URL): Promise<void> {
  const name = decodeURIComponent(workerUrl.pathname.slice(1));
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
      // Made meanwhile by another run: as good.
      if (error.code !== '42P04') throw error;
    });
  } finally {
    await client.end();
  }
}

const base = process.env[BASE] ?? process.env[GIVEN];
const poolId = process.env.VITEST_POOL_ID;
if (base && poolId) {
  const workerUrl = workerDatabaseUrl(base, poolId);
  if (process.env[GIVEN] !== workerUrl.toString()) {
    await ensureDatabase(base, workerUrl);
    process.env[BASE] = base;
    process.env[GIVEN] = workerUrl.toString();
  }
}
