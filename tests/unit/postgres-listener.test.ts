/**
 * PostgreSQL's listening connection: a write returns only after this process's listeners have had the
 * notifications it caused, also when many writes end at once; the barrier that ensures it, and LISTEN,
 * send one query at a time on the listening connection (pg refuses, from version 9, a query sent while one
 * runs). A
 * transaction waits for that barrier only when it notified: through a trigger, which marks it (migration 018),
 * or by a statement of its own.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/connection.ts';
import { migrate } from '../../server/db/migrate.ts';
import { adminQuery, withSearchPath } from '../support/server.ts';

describe.runIf(process.env.TEST_DATABASE_URL)(
  'the PostgreSQL listener (needs PostgreSQL: set TEST_DATABASE_URL)',
  () => {
    let db: Database;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);

    beforeAll(async () => {
      db = await openPostgres(process.env.TEST_DATABASE_URL!);
      process.on('warning', onWarning);
    });

    afterAll(async () => {
      process.off('warning', onWarning);
      await db?.close();
    });

    it('has delivered each write’s notification when the write returns, for 40 writes at once', async () => {
      const channel = `barrier_${randomBytes(6).toString('hex')}`;
      const heard = new Set<string>();
      const listening = await db.listen(channel, (payload) => {
        if (payload !== null) heard.add(payload);
      });
      try {
        const missing: string[] = [];
        await Promise.all(
          Array.from({ length: 40 }, async (_, n) => {
            const payload = `write ${n}`;
            await db.exec(`NOTIFY ${channel}, '${payload}'`);
            if (!heard.has(payload)) missing.push(payload);
          }),
        );
        expect(missing).toEqual([]);
        expect(heard.size).toBe(40);
        expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
      } finally {
        await listening.unlisten();
      }
    });

    it('sends a LISTEN only once the round trip under way has ended, while writes end at once', async () => {
      const first = await db.listen(`barrier_${randomBytes(6).toString('hex')}`, () => undefined);
      const channels = Array.from({ length: 5 }, () => `late_${randomBytes(6).toString('hex')}`);
      const subscriptions: Awaited<ReturnType<Database['listen']>>[] = [];
      try {
        await Promise.all([
          ...Array.from({ length: 20 }, () => db.exec(`NOTIFY ${channels[0]}, 'x'`)),
          ...channels.map(async (channel) => subscriptions.push(await db.listen(channel, () => undefined))),
        ]);
        expect(subscriptions.every((subscription) => subscription.live)).toBe(true);
        expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
      } finally {
        for (const subscription of [first, ...subscriptions]) await subscription.unlisten();
      }
    });
  },
);

describe.runIf(process.env.TEST_DATABASE_URL)(
  'transactions that notify, on PostgreSQL (needs PostgreSQL: set TEST_DATABASE_URL)',
  () => {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `notified_${randomBytes(6).toString('hex')}`;
    let db: Database;

    beforeAll(async () => {
      await adminQuery(url, `CREATE SCHEMA ${schema}`);
      db = await openPostgres(withSearchPath(url, schema));
      await migrate(db);
      await db.exec('CREATE TABLE plain (n integer)');
    });

    afterAll(async () => {
      await db?.close();
      await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });

    const mark = async (tx: Pick<Database, 'query'>) =>
      (await tx.query<{ notified: string | null }>("SELECT current_setting('app.notified', true) AS notified")).rows[0]
        .notified;

    it('marks a transaction when a trigger notifies, and only then', async () => {
      const marks = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO plain VALUES (1)');
        const before = await mark(tx);
        await tx.query(
          `INSERT INTO cms_site (id, community_id, name) VALUES ('0DM000000000001AAA', '0DB000000000001AAA', 'Marked')`,
        );
        return [before, await mark(tx)];
      });
      expect(marks[0]).not.toBe('on');
      expect(marks[1]).toBe('on');
      // The mark is the transaction's own: the next one starts without it.
      expect(await db.transaction((tx) => mark(tx))).not.toBe('on');
    });

    it('has delivered the notifications of a transaction when it returns, from a trigger or a statement of its own', async () => {
      const heard: string[] = [];
      const site = await db.listen('site_changed', (payload) => payload !== null && heard.push(payload));
      const own = await db.listen('own_channel', (payload) => payload !== null && heard.push(payload));
      try {
        await db.transaction((tx) => tx.query(`UPDATE cms_site SET name = 'Renamed' WHERE id = '0DM000000000001AAA'`));
        expect(heard).toEqual(['cms_site']);
        await db.transaction((tx) => tx.query("NOTIFY own_channel, 'own'"));
        expect(heard).toEqual(['cms_site', 'own']);
      } finally {
        await site.unlisten();
        await own.unlisten();
      }
    });

    it('commits with a named last statement, in its round trip, and takes no statement after it', async () => {
      const seen = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO plain VALUES ($1)', [3], { prepareAs: 'plain_insert', last: true });
        // Committed already: another connection sees the row before the transaction's function returns.
        const others = (await db.query('SELECT n FROM plain WHERE n = 3')).rows;
        await expect(tx.query('SELECT 1')).rejects.toThrow(/committed/);
        return others;
      });
      expect(seen).toEqual([{ n: 3 }]);
      // A last statement that fails undoes the transaction as any statement does.
      await expect(
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO plain VALUES ($1)', [4]);
          await tx.query('INSERT INTO plain VALUES ($1 / 0)', [5], { prepareAs: 'plain_insert_failing', last: true });
        }),
      ).rejects.toThrow(/division by zero/);
      expect((await db.query('SELECT n FROM plain WHERE n IN (4, 5)')).rows).toEqual([]);
    });

    it('has delivered the notifications of a transaction whose last statement committed it', async () => {
      const heard: string[] = [];
      const site = await db.listen('site_changed', (payload) => payload !== null && heard.push(payload));
      try {
        await db.transaction((tx) =>
          tx.query(`UPDATE cms_site SET name = $1 WHERE id = '0DM000000000001AAA'`, ['Renamed again'], {
            prepareAs: 'site_rename',
            last: true,
          }),
        );
        expect(heard).toEqual(['cms_site']);
      } finally {
        await site.unlisten();
      }
    });

    it('rolls back, without an error, a transaction a failed statement aborted, as COMMIT does', async () => {
      const result = await db.transaction(async (tx) => {
        await tx.query('INSERT INTO plain VALUES (2)');
        await tx.query('SELECT 1 / 0').catch(() => undefined);
        return 'returned';
      });
      expect(result).toBe('returned');
      expect((await db.query('SELECT n FROM plain WHERE n = 2')).rows).toEqual([]);
    });
  },
);
