/**
 * The settings of the app's PostgreSQL connections (server/db/connection.ts): JIT compilation is off on every
 * connection of the pool, from its first query, and inside transactions, beside the start-up options the
 * connection string gives (a search_path). The connections' own test runs when TEST_DATABASE_URL names a server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, withJitOff, type Database } from '../../server/db/connection.ts';
import { adminQuery, withSearchPath } from '../support/server.ts';

const POSTGRES = process.env.TEST_DATABASE_URL;

describe('withJitOff', () => {
  it("adds JIT off to a connection string's own start-up options", () => {
    const { connectionString, options } = withJitOff(
      'postgres://app:secret@db.example:5432/store?options=-c%20search_path%3Dshop&sslmode=require',
    );
    expect(options).toBeUndefined();
    const url = new URL(connectionString);
    expect(url.searchParams.get('options')).toBe('-c search_path=shop -c jit=off');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(`${url.username}:${url.password}@${url.host}${url.pathname}`).toBe('app:secret@db.example:5432/store');
    expect(new URL(withJitOff('postgres://127.0.0.1/test').connectionString).searchParams.get('options')).toBe(
      '-c jit=off',
    );
  });
});

describe.skipIf(!POSTGRES)('the PostgreSQL connections (needs PostgreSQL: set TEST_DATABASE_URL)', () => {
  let db: Database;
  const schema = `settings_${process.pid}`;
  beforeAll(async () => {
    await adminQuery(POSTGRES!, `CREATE SCHEMA IF NOT EXISTS ${schema}`);
    db = await openPostgres(withSearchPath(POSTGRES!, schema));
  });
  afterAll(async () => {
    await db?.close();
    await adminQuery(POSTGRES!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('compile no query with JIT, on every connection of the pool, and keep the search path', async () => {
    // Held at once, so that the pool opens several connections; each answers its first query with JIT off.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.query<{ jit: string; path: string; backend: number }>(
          `SELECT current_setting('jit') AS jit, current_setting('search_path') AS path, pg_backend_pid() AS backend,
                  pg_sleep(0.05)`,
        ),
      ),
    );
    expect(new Set(answers.map(({ rows }) => rows[0].backend)).size).toBeGreaterThan(1);
    expect(answers.map(({ rows }) => [rows[0].jit, rows[0].path])).toEqual(answers.map(() => ['off', schema]));
    const inTransaction = await db.transaction((tx) => tx.query<{ jit: string }>('SHOW jit'));
    expect(inTransaction.rows[0].jit).toBe('off');
  });
});
