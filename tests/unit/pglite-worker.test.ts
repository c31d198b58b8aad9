/**
 * PGlite in its worker thread (server/db/pglite-worker.ts): a slow statement leaves this thread's event loop
 * free; errors keep PostgreSQL's fields; transactions commit or roll back across the threads; a notification
 * reaches its listener before the write that caused it returns; a closed database refuses further calls.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/database.ts';
import { openPglite } from '../../server/db/pglite.ts';

/** A statement that keeps PGlite busy for a few hundred milliseconds on this machine. */
const SLOW_SQL = 'SELECT count(*)::int AS n FROM generate_series(1, 2000000)';

describe('PGlite in a worker thread', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await db.exec('CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL)');
  });
  afterAll(async () => {
    await db?.close();
  });

  it('runs a slow statement while this thread goes on', async () => {
    const started = performance.now();
    let slowEnded = 0;
    const slow = db.query<{ n: number }>(SLOW_SQL).then((result) => {
      slowEnded = performance.now() - started;
      return result;
    });
    // Timers of this thread keep firing, every 10 ms, while the statement runs.
    const ticks: number[] = [];
    let last = performance.now();
    while (!slowEnded) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      const now = performance.now();
      ticks.push(now - last);
      last = now;
    }
    const { rows } = await slow;
    expect(rows[0].n).toBe(2_000_000);
    // Meaningful only if the statement took long: otherwise no timer could have been held up by it.
    expect(slowEnded).toBeGreaterThan(150);
    expect(ticks.length).toBeGreaterThan(5);
    // In this thread, PGlite would have held the first timer for the statement's whole length.
    expect(Math.max(...ticks)).toBeLessThan(slowEnded / 2);
  });

  it("keeps PostgreSQL's fields of an error", async () => {
    await db.query('INSERT INTO item VALUES (1, $1)', ['one']);
    const error = await db.query('INSERT INTO item VALUES (1, $1)', ['again']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'item_pkey' });
    expect((error as Error).message).toMatch(/duplicate key/);
  });

  it('commits a transaction whose function returns, and rolls back one that throws', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO item VALUES (2, $1)', ['two']);
      return (await tx.query<{ name: string }>('SELECT name FROM item WHERE id = 2')).rows[0].name;
    });
    expect(value).toBe('two');
    const thrown = await db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO item VALUES (3, $1)', ['three']);
        throw new Error('changed my mind');
      })
      .catch((caught: unknown) => caught);
    expect((thrown as Error).message).toBe('changed my mind');
    const { rows } = await db.query<{ id: number }>('SELECT id FROM item ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
  });

  it('commits with a statement marked last, which then takes no more; begins with statements sent at once', async () => {
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO item VALUES (10, $1)', ['ten'], { last: true });
      await expect(tx.query('SELECT 1')).rejects.toThrow(/takes no more/);
    });
    await db.transaction(async (tx) => {
      await Promise.all([11, 12, 13].map((id) => tx.query('INSERT INTO item VALUES ($1, $2)', [id, `n${id}`])));
    });
    // A failed last statement rolls its transaction back.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO item VALUES (14, $1)', ['fourteen']);
        await tx.query('INSERT INTO item VALUES (10, $1)', ['again'], { last: true });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.transaction(async () => 'nothing asked')).toBe('nothing asked');
    const { rows } = await db.query<{ id: number }>('SELECT id FROM item WHERE id >= 10 ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual([10, 11, 12, 13]);
  });

  it('runs a transaction of one statement as that statement, one call of the engine', async () => {
    // A named statement runs in one call of the engine (server/db/named-statements.ts), in which its transaction
    // starts: when the transaction is that statement alone, the two start together; after a BEGIN of their own,
    // they would not.
    const began = async (tx: Queryable) =>
      (
        await tx.query<{ began: boolean }>('SELECT statement_timestamp() = transaction_timestamp() AS began', [], {
          last: true,
          prepareAs: 'item_began',
        })
      ).rows[0].began;
    expect(await db.transaction(began)).toBe(true);
    expect(
      await db.transaction(async (tx) => {
        await tx.query('SELECT 1');
        return began(tx);
      }),
    ).toBe(false);
  });

  it('hands a notification to its listener before the write that caused it returns', async () => {
    const heard: (string | null)[] = [];
    const listening = await db.listen('item_changed', (payload) => heard.push(payload));
    await db.query(`SELECT pg_notify('item_changed', 'first')`);
    expect(heard).toEqual(['first']);
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('item_changed', 'second')`);
    });
    expect(heard).toEqual(['first', 'second']);
    await listening.unlisten();
    await db.query(`SELECT pg_notify('item_changed', 'third')`);
    expect(heard).toEqual(['first', 'second']);
  });

  it('refuses calls once closed', async () => {
    const other = await openPglite(undefined);
    await other.close();
    await expect(other.query('SELECT 1')).rejects.toThrow(/PGlite worker stopped/);
  });
});
