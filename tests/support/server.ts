/**
 * A real server for tests: the app over a fresh database, served over HTTP on 127.0.0.1 at a free port.
 * PGlite in memory by default; a throw-away schema of TEST_DATABASE_URL's PostgreSQL database on request.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pg from 'pg';
import type { AppOptions } from '../../server/app-options.ts';
import { createApp } from '../../server/app.ts';
import type { Database } from '../../server/db/connection.ts';
import { openDatabase } from '../../server/db/open.ts';

export type DatabaseKind = 'pglite' | 'postgres';

/** Contacts seeded by default in tests: enough for several chunks of a filter, quick to seed. */
export const TEST_DEMO_CONTACTS = 600;

export interface TestServerOptions {
  /** 'postgres' needs TEST_DATABASE_URL; default 'pglite' (in memory). */
  database?: DatabaseKind;
  /** Demo contacts to seed; default TEST_DEMO_CONTACTS. */
  demoContacts?: number;
  /** Passed to createApp: a clock tests can move, session lifetimes, limits. */
  app?: AppOptions;
}

export interface TestServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  baseUrl: string;
  db: Database;
  app: ReturnType<typeof createApp>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

/** The databases suites run on: PGlite always, PostgreSQL when TEST_DATABASE_URL names one. */
export function databases(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** The connection string with a search_path, so that every pooled connection lands in that schema. */
function withSearchPath(connectionString: string, schema: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function adminQuery(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const kind = options.database ?? 'pglite';
  const demoContacts = options.demoContacts ?? TEST_DEMO_CONTACTS;
  let db: Database;
  let dropSchema = async () => {};
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('startTestServer({ database: "postgres" }) needs TEST_DATABASE_URL');
    const schema = `test_${process.pid}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `CREATE SCHEMA ${schema}`);
    dropSchema = () => adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    try {
      db = await openDatabase({ databaseUrl: withSearchPath(url, schema), dataDir: ':memory:', demoContacts });
    } catch (error) {
      await dropSchema();
      throw error;
    }
  } else {
    db = await openDatabase({ dataDir: ':memory:', demoContacts });
  }

  const app = createApp(db, options.app);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;

  let closed = false;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db,
    app,
    kind,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of fetch would hold close() open until they time out.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await db.close();
      await dropSchema();
    },
  };
}
