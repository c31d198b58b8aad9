/**
 * Which records changed, as far as this process has heard: something made from records read after a mark
 * (recordChangeMark) is current as long as none of them changed since (changedSince). Every statement that
 * changes records notifies record_data_changed at commit with their ids, or '*' (migration 019), from any
 * server on the database; a user's layout states are named 'layout-state:' and the user's id. While
 * notifications may be missed there is no mark, and nothing made from records may be kept.
 */
import type { Database } from '../db/connection.ts';
import { CACHES_ON } from './switch.ts';
import { Subscription } from './subscription.ts';

export const RECORD_DATA_CHANGED = 'record_data_changed';
/** Ids remembered at most; past it, every record counts as changed (the floor moves on) and the list starts again. */
const MAX_CHANGED_KEYS = 50_000;

/** The key of a user's layout states among the record ids. */
export const layoutStateKey = (userId: string) => `layout-state:${userId}`;

class RecordChanges {
  /** Moves on with every notification. */
  sequence = 0;
  /** Every record changed at this sequence or before. */
  floor = 0;
  /** The sequence each record changed at last, for those changed since the floor. */
  readonly changedAt = new Map<string, number>();
  readonly subscription = new Subscription(
    RECORD_DATA_CHANGED,
    (payload) => this.#heard(payload),
    'Kept record answers',
  );

  #heard(payload: string | null): void {
    const sequence = ++this.sequence;
    // null: notifications may have been missed.
    if (payload === null || payload === '*' || this.changedAt.size >= MAX_CHANGED_KEYS) {
      this.floor = sequence;
      this.changedAt.clear();
      return;
    }
    for (const key of payload.split(',')) this.changedAt.set(key, sequence);
  }
}

const watches = new WeakMap<Database, RecordChanges>();

function watchOf(db: Database): RecordChanges {
  let watch = watches.get(db);
  if (!watch) watches.set(db, (watch = new RecordChanges()));
  return watch;
}

/**
 * The mark to take before reading records for something to keep; undefined while changes may be missed
 * (the first call subscribes: until that is done, there is no mark).
 */
export function recordChangeMark(db: Database): number | undefined {
  // With caches off there is never a mark: nothing made from records is kept.
  if (!CACHES_ON) return undefined;
  const watch = watchOf(db);
  if (watch.subscription.live) return watch.sequence;
  if (!watch.subscription.subscribed) void watch.subscription.subscribe(db);
  return undefined;
}

/** Whether any of the records (ids, or layoutStateKey's) may have changed since mark. */
export function changedSince(db: Database, keys: readonly string[], mark: number): boolean {
  const watch = watches.get(db);
  if (!watch?.subscription.live || mark < watch.floor) return true;
  for (const key of keys) if ((watch.changedAt.get(key) ?? 0) > mark) return true;
  return false;
}
