/**
 * A real server for tests: the app over a fresh database, served over HTTP on 127.0.0.1 at a free port.
 * PGlite in memory by default (started from the run's image of a seeded database: database-image.ts); a
 * throw-away schema of TEST_DATABASE_URL's PostgreSQL database on request.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import type { AppOptions } from '../../server/app-options.ts';
import { createSite } from '../../site/app.ts';
import type { Database } from '../../server/db/connection.ts';
import { openDatabase } from '../../server/bootstrap.ts';
import { trustProxyOf } from '../../server/http/limits/limits.ts';
import { DEFAULT_CONNECTIONS, serveSite, type ConnectionOptions } from '../../server/http/connections/serve.ts';
import { generatePassword, type DemoPasswords } from '../../server/platform/users.ts';
import { databaseImage } from './database-image.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Contacts seeded by default in tests: enough for several chunks of a filter, quick to seed. */
export const TEST_DEMO_CONTACTS = 600;

export interface TestServerOptions {
  /** 'postgres' needs TEST_DATABASE_URL; default 'pglite' (in memory). */
  database?: DatabaseKind;
  /** Demo contacts to seed; default TEST_DEMO_CONTACTS. */
  demoContacts?: number;
  /** Passed to createSite: a clock tests can move, session lifetimes, limits. */
  app?: AppOptions;
  /** Deadlines and caps on connections; the defaults, but no cap per address unless a test sets one. */
  connections?: Partial<ConnectionOptions>;
}

export interface TestServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  db: Database;
  app: ReturnType<typeof createSite>;
  kind: DatabaseKind;
  /** The demo users' passwords, generated for this server (tests/support/session.ts signs in with them). */
  passwords: Required<DemoPasswords>;
  close(): Promise<void>;
}

/** The databases suites run on: PGlite always, PostgreSQL when TEST_DATABASE_URL names one. */
export function databases(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** The connection string with a search_path, so that every pooled connection lands in that schema. */
export function withSearchPath(connectionString: string, schema: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** One statement on its own connection (schemas made and dropped around a test). */
export async function adminQuery(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A port nobody listens on at 127.0.0.1, for a server process a test spawns. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const kind = options.database ?? 'pglite';
  const demoContacts = options.demoContacts ?? TEST_DEMO_CONTACTS;
  const image = kind === 'pglite' ? await databaseImage() : undefined;
  const passwords = image?.passwords ?? { admin: generatePassword(), standard: generatePassword() };
  const open = { demoPasswords: passwords, log: () => {} };
  let db: Database;
  let dropSchema = async () => {};
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('startTestServer({ database: "postgres" }) needs TEST_DATABASE_URL');
    const schema = `test_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `CREATE SCHEMA ${schema}`);
    dropSchema = () => adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    try {
      db = await openDatabase({ databaseUrl: withSearchPath(url, schema), dataDir: ':memory:', demoContacts }, open);
    } catch (error) {
      await dropSchema();
      throw error;
    }
  } else {
    db = await openDatabase({ dataDir: ':memory:', demoContacts, pgliteImage: image?.image }, open);
  }

  // Rate limits would make suites that call an operation many times flaky: off unless a test sets limits.
  const app = createSite(db, {
    ...options.app,
    limits: options.app?.limits ?? { publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0, inquiriesPerWindow: 0 },
  });
  // Served as site/main.ts serves. Every test's requests come from 127.0.0.1, many at once in some suites: like
  // the rate limits, the cap on connections per address is off unless a test sets it.
  const connections = { ...DEFAULT_CONNECTIONS, maxConnectionsPerAddress: 0, ...options.connections };
  const serving = {
    fetch: app.fetch,
    hostname: '127.0.0.1',
    port: 0,
    connections,
    trustProxy: trustProxyOf(options.app ?? {}),
  };
  const server = await new Promise<ReturnType<typeof serveSite>>((resolve, reject) => {
    const started = serveSite(serving, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  let closed = false;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db,
    app,
    kind,
    passwords,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of fetch would hold close() open until they time out.
        server.closeAllConnections();
      });
      await db.close();
      await dropSchema();
    },
  };
}
