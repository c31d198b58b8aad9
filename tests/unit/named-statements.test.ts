/**
 * Named statements on PGlite and PostgreSQL (QueryOptions.prepareAs): prepared once and run with EXECUTE, their parameters
 * given as SQL literals. They answer exactly as the same statement run the ordinary way, for every kind of
 * parameter the app sends, quotes and backslashes included; a statement prepared before its table changed
 * shape still answers; one PREPARE refuses takes the ordinary way.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/connection.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { sqlLiteral } from '../../server/db/named-statements.ts';
import { adminQuery, withSearchPath } from '../support/server.ts';

const POSTGRES = process.env.TEST_DATABASE_URL;
/** PGlite in memory always; the PostgreSQL server too when TEST_DATABASE_URL names one, in a throw-away schema. */
const kinds = POSTGRES ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

describe('SQL literals of parameters', () => {
  it('quotes text as the driver sends it, and refuses what has no text form', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(undefined)).toBe('NULL');
    expect(sqlLiteral("O'Brien \\ co")).toBe("'O''Brien \\ co'");
    expect(sqlLiteral(42)).toBe("'42'");
    expect(sqlLiteral(true)).toBe('true');
    expect(sqlLiteral(new Date('2026-01-02T03:04:05.678Z'))).toBe("'2026-01-02T03:04:05.678Z'");
    expect(sqlLiteral(['a', 'b"c', 'd\\e', null])).toBe(`'{"a","b\\"c","d\\\\e",NULL}'`);
    expect(sqlLiteral({ key: "it's" })).toBe(`'{"key":"it''s"}'`);
    expect(sqlLiteral('nul\0')).toBeUndefined();
    expect(sqlLiteral(new Uint8Array([1]))).toBeUndefined();
    expect(sqlLiteral(Number.NaN)).toBeUndefined();
  });
});

describe.each(kinds)('named statements on %s', (kind) => {
  let db: Database;
  const schema = `named_${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    if (kind === 'pglite') db = await openPglite(undefined);
    else {
      await adminQuery(POSTGRES!, `CREATE SCHEMA ${schema}`);
      // One connection: every run meets the statement that connection prepared.
      process.env.DATABASE_POOL_SIZE = '1';
      try {
        db = await openPostgres(withSearchPath(POSTGRES!, schema));
      } finally {
        delete process.env.DATABASE_POOL_SIZE;
      }
    }
    await db.exec(
      `CREATE TABLE item (id text PRIMARY KEY, name text, tags text[], seen timestamptz, data jsonb, active boolean, size integer)`,
    );
    await db.query(`INSERT INTO item VALUES ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14)`, [
      'a',
      "O'Brien \\ co",
      ['x', 'y"z'],
      new Date('2026-01-02T03:04:05.678Z'),
      { key: "it's" },
      true,
      3,
      'b',
      null,
      [],
      null,
      null,
      false,
      null,
    ]);
  });
  afterAll(async () => {
    await db?.close();
    if (kind === 'postgres') await adminQuery(POSTGRES!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  const SELECT = 'SELECT * FROM item WHERE id = ANY($1::text[]) AND (name = $2 OR $2 IS NULL) ORDER BY id';

  it('answers as the ordinary way does, run after run', async () => {
    for (const [ids, name] of [
      [['a', 'b'], null],
      [['a'], "O'Brien \\ co"],
      [['b', 'missing'], null],
      [[], null],
    ] as const) {
      const ordinary = await db.query(SELECT, [ids, name]);
      for (let run = 0; run < 7; run++)
        expect(await db.query(SELECT, [ids, name], { prepareAs: 'items_by_ids' })).toEqual(ordinary);
    }
    // Prepared once, and run from then on with the plan made for it.
    const { rows } = await db.query<{ name: string; generic_plans: number }>(
      'SELECT name, generic_plans::int AS generic_plans FROM pg_prepared_statements',
    );
    expect(rows).toEqual([{ name: 'generic_items_by_ids', generic_plans: 28 }]);
    const byValues = 'SELECT id FROM item WHERE seen = $1 AND data = $2 AND active = $3 AND size = $4 AND tags = $5';
    const values = [new Date('2026-01-02T03:04:05.678Z'), { key: "it's" }, true, 3, ['x', 'y"z']];
    expect((await db.query(byValues, values, { prepareAs: 'item_by_values' })).rows).toEqual([{ id: 'a' }]);
  });

  it('writes through a named statement, and leaves the plan settings as they were', async () => {
    await db.query('UPDATE item SET size = $2 WHERE id = $1', ['b', 7], { prepareAs: 'item_size' });
    expect((await db.query('SELECT size FROM item WHERE id = $1', ['b'])).rows).toEqual([{ size: 7 }]);
    expect((await db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('auto');
  });

  it("runs a named statement in a transaction, and fails that transaction with the statement's own error", async () => {
    const read = 'SELECT size FROM item WHERE id = $1 FOR UPDATE';
    const sizes = await db.transaction(async (tx) => {
      const before = (await tx.query<{ size: number }>(read, ['a'], { prepareAs: 'item_locked' })).rows[0].size;
      await tx.query('UPDATE item SET size = $2 WHERE id = $1', ['a', before + 1], {
        prepareAs: 'item_size_in_transaction',
      });
      return [before, (await tx.query<{ size: number }>(read, ['a'], { prepareAs: 'item_locked' })).rows[0].size];
    });
    expect(sizes[1]).toBe(sizes[0] + 1);
    // By PREPARE, as outside (on PostgreSQL, the transaction's BEGIN sent with its first statement).
    const generic = await db.query("SELECT name FROM pg_prepared_statements WHERE name = 'generic_item_locked'");
    expect(generic.rows).toHaveLength(1);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE item SET size = $2 WHERE id = $1', ['a', 100], {
          prepareAs: 'item_size_in_transaction',
        });
        await tx.query('INSERT INTO item (id) VALUES ($1)', ['a'], { prepareAs: 'item_insert' });
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await db.query<{ size: number }>('SELECT size FROM item WHERE id = $1', ['a'])).rows[0].size).toBe(
      sizes[1],
    );
    // A transaction whose first statement fails (the one that carried BEGIN) is rolled back: the connection
    // (the only one, on PostgreSQL) goes on answering outside any transaction.
    await expect(
      db.transaction((tx) => tx.query('INSERT INTO item (id) VALUES ($1)', ['a'], { prepareAs: 'item_insert' })),
    ).rejects.toThrow(/duplicate key/);
    await db.query('UPDATE item SET size = $2 WHERE id = $1', ['b', 8], { prepareAs: 'item_size' });
    await expect(db.transaction(async () => 'no statement')).resolves.toBe('no statement');
    expect((await db.query<{ size: number }>('SELECT size FROM item WHERE id = $1', ['b'])).rows[0].size).toBe(8);
    expect((await db.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0].plan_cache_mode).toBe('auto');
  });

  it('answers after its table changed shape, and when PREPARE refuses the statement', async () => {
    const all = 'SELECT * FROM item WHERE id = $1';
    expect((await db.query(all, ['a'], { prepareAs: 'item_all' })).rows).toHaveLength(1);
    await db.exec('ALTER TABLE item ADD COLUMN extra text');
    const [row] = (await db.query<Record<string, unknown>>(all, ['a'], { prepareAs: 'item_all' })).rows;
    expect(row).toHaveProperty('extra', null);
    expect((await db.query<Record<string, unknown>>(all, ['a'], { prepareAs: 'item_all' })).rows[0]).toHaveProperty(
      'extra',
      null,
    );
    // A parameter whose type only its use tells (unknown, read as text) answers as the ordinary way does.
    await expect(db.query('SELECT $1 AS value', ['x'], { prepareAs: 'untyped' })).resolves.toEqual({
      rows: [{ value: 'x' }],
    });
    // PREPARE refuses a statement over a table that does not exist: the ordinary way gives the error it always did,
    // and nothing is left prepared under its name.
    await expect(
      db.query('SELECT * FROM missing_table WHERE id = $1', ['x'], { prepareAs: 'missing' }),
    ).rejects.toThrow(/missing_table/);
    expect((await db.query("SELECT name FROM pg_prepared_statements WHERE name = 'generic_missing'")).rows).toEqual([]);
  });
});
