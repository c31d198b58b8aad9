/**
 * PGlite's upkeep (server/db/open.ts): a database written to is vacuumed at its next checkpoint, so that an
 * index whose key every update changes stops growing; one written to less than the threshold is left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openMigratedDatabase, vacuumIfWritten, VACUUM_AFTER_TRANSACTIONS } from '../../server/db/open.ts';
import { openPglite } from '../../server/db/pglite.ts';

/** Updates each changing an indexed key: a new index entry each, which only VACUUM clears for reuse. */
async function updateMany(db: Database, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await db.query('UPDATE item SET code = $1 WHERE id = 1', [`code-${Math.random()}`]);
}

const tableSize = async (db: Database) =>
  Number((await db.query<{ size: string }>("SELECT pg_total_relation_size('item')::text AS size")).rows[0].size);

/** How many times a table has been vacuumed. */
const vacuumCount = async (db: Database, table: string) =>
  Number(
    (
      await db.query<{ n: string }>('SELECT vacuum_count::text AS n FROM pg_stat_user_tables WHERE relname = $1', [
        table,
      ])
    ).rows[0].n,
  );

describe('vacuumIfWritten', () => {
  let db: Database | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  async function openItems(): Promise<Database> {
    db = await openPglite(undefined);
    await db.exec(
      'CREATE TABLE item (id int PRIMARY KEY, code text NOT NULL); CREATE INDEX item_code_idx ON item (code)',
    );
    await db.query("INSERT INTO item VALUES (1, 'first')");
    return db;
  }

  /** The item table and another, both vacuumed since written. */
  async function openItemsAndOther(): Promise<Database> {
    const db = await openItems();
    await db.exec('CREATE TABLE other (id int PRIMARY KEY); INSERT INTO other VALUES (1)');
    // The insert counted before the vacuum (statistics otherwise wait up to a second in the session).
    await db.query('SELECT pg_stat_force_next_flush()');
    await db.exec('VACUUM');
    return db;
  }

  /** The table's size after each of eight rounds of 300 updates, vacuumed after each round (if at all) when due. */
  async function sizesAfterRounds(vacuum: boolean): Promise<number[]> {
    const db = await openItems();
    let since = 0n;
    const sizes: number[] = [];
    for (let round = 0; round < 8; round++) {
      await updateMany(db, 300);
      if (vacuum) since = await vacuumIfWritten(db, since, 200);
      sizes.push(await tableSize(db));
    }
    return sizes;
  }

  it('keeps a table updated again and again from growing', async () => {
    const sizes = await sizesAfterRounds(true);
    // From the third round on, the updates reuse the space the vacuums cleared (at most two pages more).
    expect(sizes[7] - sizes[2]).toBeLessThanOrEqual(16_384);
  });

  it('lets the same table grow without it', async () => {
    const sizes = await sizesAfterRounds(false);
    // What the test above would see, were the vacuum not run: each round adds its entries (16 to 40 KB here).
    expect(sizes[7] - sizes[2]).toBeGreaterThan(49_152);
  });

  it('leaves a database written to less than the threshold alone', async () => {
    const db = await openItems();
    const since = await vacuumIfWritten(db, 0n, 1);
    await updateMany(db, 20);
    expect(await vacuumIfWritten(db, since, 100)).toBe(since);
    const vacuums = () => vacuumCount(db, 'item');
    const before = await vacuums();
    await vacuumIfWritten(db, since, 100);
    expect(await vacuums()).toBe(before);
    expect(await vacuumIfWritten(db, since, 20)).toBeGreaterThan(since);
    expect(await vacuums()).toBe(before + 1);
  });

  it('vacuums only the tables written to since their last vacuum', async () => {
    const db = await openItemsAndOther();
    const counts = async () => [await vacuumCount(db, 'item'), await vacuumCount(db, 'other')];
    const [items, others] = await counts();
    await updateMany(db, 20);
    await vacuumIfWritten(db, 0n, 20);
    expect(await counts()).toEqual([items + 1, others]);
  });

  it('vacuums the whole database once its oldest transaction id is older than the age given', async () => {
    const db = await openItemsAndOther();
    const before = await vacuumCount(db, 'other');
    await updateMany(db, 20);
    await vacuumIfWritten(db, 0n, 20, 0);
    expect(await vacuumCount(db, 'other')).toBe(before + 1);
  });
});

describe('a PGlite data directory opened migrated', () => {
  it('is vacuumed at its checkpoint once enough transactions have written', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-upkeep-'));
    // Only the checkpoint's interval is faked: PGlite's own timers and this test's waits stay real.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const db = await openMigratedDatabase({ dataDir, demoContacts: 0 });
    try {
      await db.exec("CREATE TABLE item (id int PRIMARY KEY, code text NOT NULL); INSERT INTO item VALUES (1, 'first')");
      const vacuums = () => vacuumCount(db, 'item');
      // A row updated (a dead row to vacuum); each statement that assigns a transaction id is a transaction that
      // wrote.
      await updateMany(db, 1);
      for (let i = 0; i < VACUUM_AFTER_TRANSACTIONS; i++) await db.query('SELECT pg_current_xact_id()');
      expect(await vacuums()).toBe(0);
      await vi.advanceTimersToNextTimerAsync();
      await vi.waitFor(async () => expect(await vacuums()).toBe(1), { timeout: 10_000, interval: 50 });
    } finally {
      vi.useRealTimers();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
