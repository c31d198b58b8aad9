/**
 * Record changes (server/cache/record-changes.ts): no mark before the subscription to record_data_changed is
 * made or while notifications may be missed; after a mark, a notification changes the records it names and
 * no others; '*', or missed notifications, change every record.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { listeningHandle } from '../support/listening.ts';
import {
  changedSince,
  layoutStateKey,
  RECORD_DATA_CHANGED,
  recordChangeMark,
} from '../../server/cache/record-changes.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

/** A mark, once the subscription the first call starts is made. */
async function markOf(db: Database): Promise<number> {
  recordChangeMark(db);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const mark = recordChangeMark(db);
  if (mark === undefined) throw new Error('no mark');
  return mark;
}

const A = '0018d0000000001AAA';
const B = '0018d0000000002AAA';

describe.skipIf(!CACHES_ON)('record changes (needs the caches on: not CACHES=off)', () => {
  it('has no mark before it subscribed, and subscribes to record_data_changed once', async () => {
    const { db, channels } = listeningHandle();
    expect(recordChangeMark(db)).toBeUndefined();
    await markOf(db);
    await markOf(db);
    expect(channels).toEqual([RECORD_DATA_CHANGED]);
  });

  it('changes the records a notification names, and no others', async () => {
    const { db, notify } = listeningHandle();
    const mark = await markOf(db);
    expect(changedSince(db, [A, B], mark)).toBe(false);
    notify(`${B},0038d0000000001AAA`);
    expect(changedSince(db, [A], mark)).toBe(false);
    expect(changedSince(db, [A, B], mark)).toBe(true);
    // Read after the change: current.
    expect(changedSince(db, [A, B], await markOf(db))).toBe(false);
    notify(layoutStateKey('0058d0000000001AAA'));
    expect(changedSince(db, [A, layoutStateKey('0058d0000000001AAA')], mark)).toBe(true);
    expect(changedSince(db, [A, layoutStateKey('0058d0000000002AAA')], mark)).toBe(false);
  });

  it("changes every record at '*' and when notifications may have been missed", async () => {
    const { db, notify, state } = listeningHandle();
    const before = await markOf(db);
    notify('*');
    expect(changedSince(db, [A], before)).toBe(true);
    const after = await markOf(db);
    expect(changedSince(db, [A], after)).toBe(false);
    notify(null);
    expect(changedSince(db, [], after)).toBe(true);

    const current = await markOf(db);
    state.live = false;
    expect(changedSince(db, [A], current)).toBe(true);
    expect(recordChangeMark(db)).toBeUndefined();
  });

  it('counts every record as changed on a handle it never subscribed on', () => {
    const { db } = listeningHandle();
    expect(changedSince(db, [A], 0)).toBe(true);
  });
});
