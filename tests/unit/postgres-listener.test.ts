/**
 * PostgreSQL's listening connection: a write returns only after this process's listeners have had the
 * notifications it caused, also when many writes end at once; the barrier that ensures it sends one query
 * at a time on the listening connection (pg refuses, from version 9, a query sent while one runs).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../../server/db/connection.ts';

describe.runIf(process.env.TEST_DATABASE_URL)('the PostgreSQL listener', () => {
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
});
