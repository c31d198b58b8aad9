/**
 * oncePerDatabase: one read per database handle, a failed read not kept, forget() reading again; on a handle
 * that listens, read again after each org_metadata_changed notification, and nothing kept while
 * notifications may be missed.
 */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/connection.ts';
import { ORG_METADATA_CHANGED, oncePerDatabase } from '../../server/cache/per-database.ts';
import { listeningHandle } from '../support/listening.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

const handle = (): Queryable => ({ query: async () => ({ rows: [] }) });

describe.skipIf(!CACHES_ON)('oncePerDatabase (needs the caches on: not CACHES=off)', () => {
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

  const listening = listeningHandle;

  it('on a handle that listens: subscribes once before the first read, reads again after a change, keeps nothing while not live', async () => {
    let calls = 0;
    const value = oncePerDatabase(async () => ++calls);
    const handle = listening();
    expect([await value(handle.db), await value(handle.db)]).toEqual([1, 1]);
    expect(handle.channels).toEqual([ORG_METADATA_CHANGED]);
    handle.notify('sobject');
    expect([await value(handle.db), await value(handle.db)]).toEqual([2, 2]);
    // Notifications may have been missed (the connection was lost): read again, and at every call meanwhile.
    handle.notify(null);
    handle.state.live = false;
    expect([await value(handle.db), await value(handle.db)]).toEqual([3, 4]);
    handle.state.live = true;
    expect([await value(handle.db), await value(handle.db)]).toEqual([5, 5]);
    expect(handle.channels).toEqual([ORG_METADATA_CHANGED]);
  });

  it('does not keep past a change a value whose read was under way when the change came', async () => {
    let calls = 0;
    let release = () => {};
    const value = oncePerDatabase(async () => {
      const call = ++calls;
      if (call === 1) await new Promise<void>((resolve) => (release = resolve));
      return call;
    });
    const handle = listening();
    const first = value(handle.db);
    await new Promise((resolve) => setTimeout(resolve, 0));
    handle.notify('layout');
    release();
    expect(await first).toBe(1);
    expect([await value(handle.db), await value(handle.db)]).toEqual([2, 2]);
  });
});
