/** oncePerDatabase: one read per database handle, a failed read not kept, forget() reading again. */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/connection.ts';
import { oncePerDatabase } from '../../server/db/per-database.ts';

const handle = (): Queryable => ({ query: async () => ({ rows: [] }) });

describe('oncePerDatabase', () => {
  it('reads once per handle, and apart for each handle, also when asked again before the read ends', async () => {
    const reads: Queryable[] = [];
    const value = oncePerDatabase(async (db) => {
      reads.push(db);
      return { n: reads.length };
    });
    const one = handle();
    const two = handle();
    const [a, b] = await Promise.all([value(one), value(one)]);
    expect(a).toBe(b);
    expect(await value(one)).toBe(a);
    expect(await value(two)).not.toBe(a);
    expect(reads).toEqual([one, two]);
  });

  it('does not keep a read that failed: the next call reads again', async () => {
    let calls = 0;
    const value = oncePerDatabase(async () => {
      calls++;
      if (calls === 1) throw new Error('connection lost');
      return calls;
    });
    const db = handle();
    await expect(value(db)).rejects.toThrow('connection lost');
    expect(await value(db)).toBe(2);
    expect(await value(db)).toBe(2);
  });

  it('reads again after forget, for that handle only', async () => {
    let calls = 0;
    const value = oncePerDatabase(async () => ++calls);
    const one = handle();
    const two = handle();
    expect([await value(one), await value(two)]).toEqual([1, 2]);
    value.forget(one);
    expect([await value(one), await value(two)]).toEqual([3, 2]);
  });
});
