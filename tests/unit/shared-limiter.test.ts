/**
 * The rate limit counted in the database (server/http/limits/shared-limiter.ts), over a stand-in for the database
 * that counts as its UPSERT does and lets a test hold a write back: the exact count holds this process's hits
 * thbefore routing counted and had not written yet, so that no request past the limit gets through.
 */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/connection.ts';
import { SharedWindowLimiter } from '../../server/http/limits/shared-limiter.ts';

const WINDOW_MS = 60_000;

/** rate_limit_window in memory; each write may be held until the test lets it go. */
function countingDatabase() {
  const rows = new Map<string, { windowStart: number; hits: number }>();
  let hold: Promise<void> | null = null;
  const db: Queryable = {
    query: async <Row>(sql: string, params: unknown[] = []) => {
      if (sql.startsWith('DELETE')) return { rows: [] as Row[] };
      const [, keys, hits, now, windowMs] = params as [string, string[], number[], number, number];
      if (hold) await hold;
      const answered = keys.map((key, index) => {
        const row = rows.get(key);
        const next =
          !row || row.windowStart + windowMs <= now
            ? { windowStart: now, hits: hits[index] }
            : { windowStart: row.windowStart, hits: row.hits + hits[index] };
        rows.set(key, next);
        return { client_key: key, window_start: String(next.windowStart), hits: next.hits };
      });
      return { rows: answered as Row[] };
    },
  };
  return {
    db,
    hits: (key: string) => rows.get(key)?.hits ?? 0,
    /** Holds back every write from now until the returned function is called. */
    holdWrites() {
      let release = () => {};
      hold = new Promise((done) => (release = done));
      return () => {
        hold = null;
        release();
      };
    },
  };
}

describe('the rate limit counted in the database', () => {
  it('counts the hits the replay stage has not written yet in the exact count', async () => {
    const database = countingDatabase();
    const clock = { now: () => 1_000_000 };
    const limiter = new SharedWindowLimiter('public', 3, WINDOW_MS, database.db, clock);

    expect(await limiter.hitExact('203.0.113.7')).toBe(0); // 1: the count is read, fresh from now on
    const release = database.holdWrites();
    expect(limiter.hitIfKnown('203.0.113.7')).toBe(0); // 2: counted here, written later
    expect(limiter.hitIfKnown('203.0.113.7')).toBe(0); // 3
    // 4: past the limit, though the database holds 1 when this request is counted there.
    const fourth = limiter.hitExact('203.0.113.7');
    release();
    expect(await fourth).toBe(60);
    expect(database.hits('203.0.113.7')).toBe(4);
  });

  it('lets the limit through exactly: N requests, the fast and the exact way mixed, then a refusal', async () => {
    const database = countingDatabase();
    const clock = { now: () => 2_000_000 };
    const limiter = new SharedWindowLimiter('public', 5, WINDOW_MS, database.db, clock);
    const answers: number[] = [await limiter.hitExact('198.51.100.1')];
    for (let request = 0; request < 2; request++) answers.push(limiter.hitIfKnown('198.51.100.1') ?? -1);
    answers.push(await limiter.hitExact('198.51.100.1'));
    answers.push(await limiter.hitExact('198.51.100.1'));
    answers.push(await limiter.hitExact('198.51.100.1'));
    expect(answers).toEqual([0, 0, 0, 0, 0, 60]);
    await limiter.flush();
    expect(database.hits('198.51.100.1')).toBe(6);
  });
});
