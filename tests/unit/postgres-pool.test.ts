/**
 * The PostgreSQL pool when the server ends its idle connections (a restart, pg_terminate_backend, a timeout):
 * the process lives on, and the next query is answered on a new connection. Runs when TEST_DATABASE_URL names
 * a PostgreSQL server.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/connection.ts';

const POSTGRES = process.env.TEST_DATABASE_URL;

describe.skipIf(!POSTGRES)('the PostgreSQL pool (needs PostgreSQL: set TEST_DATABASE_URL)', () => {
  const name = `pool_${randomBytes(6).toString('hex')}`;
  let db: Database;
  let admin: pg.Client;

  beforeAll(async () => {
    const url = new URL(POSTGRES!);
    url.searchParams.set('application_name', name);
    db = await openPostgres(url.toString());
    admin = new pg.Client({ connectionString: POSTGRES });
    await admin.connect();
  });
  afterAll(async () => {
    await db?.close();
    await admin?.end();
  });

  const backends = async () =>
    (
      await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'",
        [name],
      )
    ).rows.map((row) => row.pid);

  it('lives on when the server ends its idle connections, and answers the next query on a new one', async () => {
    await Promise.all([db.query('SELECT pg_sleep(0.05)'), db.query('SELECT pg_sleep(0.05)')]);
    const idle = await backends();
    expect(idle.length).toBeGreaterThanOrEqual(2);
    const errors: unknown[] = [];
    const listener = (error: unknown) => errors.push(error);
    process.on('uncaughtException', listener);
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [idle]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await db.query<{ n: number }>('SELECT 2 AS n')).rows).toEqual([{ n: 2 }]);
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', listener);
    }
  });
});
