/**
 * What is read from the database once per handle and kept: the org's metadata (objects, fields, record types,
 * layouts, picklist values). It changes when a server starts with new metadata files (loadOrgMetadata), which
 * may happen while other servers on the same PostgreSQL database are running: every statement that changes a
 * metadata table notifies org_metadata_changed at commit (migration 016), and each handle that can listen
 * reads again after a notification. While notifications may be missed (the listening connection is down,
 * or could not be opened), nothing is kept: every call reads. A read that fails is not kept either;
 * forget() drops what was kept. With CACHES=off nothing is kept at all.
 */
import type { Database, Queryable } from '../db/connection.ts';
import { CACHES_ON } from './switch.ts';
import { Subscription } from './subscription.ts';

export const ORG_METADATA_CHANGED = 'org_metadata_changed';

interface PerDatabase<T> {
  (db: Queryable): Promise<T>;
  forget(db: Queryable): void;
}

/** A database handle's subscription to metadata changes, shared by every per-database value. */
interface Watch {
  /** Bumped by every notification: a value read before it is not current. */
  generation: number;
  subscription: Subscription;
}

const watches = new WeakMap<Queryable, Watch>();

/** The watch of a handle that can listen (a Database); undefined for one that cannot (a transaction's), whose values are kept as long as it lives. */
function watchOf(db: Queryable): Watch | undefined {
  if (typeof (db as Partial<Database>).listen !== 'function') return undefined;
  let watch = watches.get(db);
  if (!watch) {
    const created: Watch = {
      generation: 0,
      // A change, or (null) notifications that may have been missed: whatever was read before is stale.
      subscription: new Subscription(ORG_METADATA_CHANGED, () => void created.generation++, 'Org metadata'),
    };
    watches.set(db, (watch = created));
  }
  return watch;
}

interface Kept<T> {
  value: Promise<T>;
  generation: number;
}

export function oncePerDatabase<T>(read: (db: Queryable) => Promise<T>): PerDatabase<T> {
  const kept = new WeakMap<Queryable, Kept<T>>();
  const isCurrent = (entry: Kept<T>, watch: Watch | undefined) =>
    !watch || (entry.generation === watch.generation && watch.subscription.live);

  const readAndKeep = (db: Queryable, watch: Watch | undefined): Promise<T> => {
    const value = read(db);
    // Kept only when a change made during the read would be heard: its notification bumps the generation.
    if (watch && !watch.subscription.live) return value;
    const entry = { value, generation: watch?.generation ?? 0 };
    kept.set(db, entry);
    value.catch(() => {
      if (kept.get(db) === entry) kept.delete(db);
    });
    return value;
  };

  const get = (db: Queryable): Promise<T> => {
    if (!CACHES_ON) return read(db);
    const watch = watchOf(db);
    const entry = kept.get(db);
    if (entry && isCurrent(entry, watch)) return entry.value;
    // Subscribed before the first read, so that a change made during it is heard.
    if (watch && !watch.subscription.subscribed) {
      return watch.subscription.subscribe(db as Database).then(() => {
        const again = kept.get(db);
        return again && isCurrent(again, watch) ? again.value : readAndKeep(db, watch);
      });
    }
    return readAndKeep(db, watch);
  };
  return Object.assign(get, { forget: (db: Queryable) => void kept.delete(db) });
}

/**
 * The generation of the org's metadata on a database handle: a number that changes with every change of it,
 * or undefined while changes may be missed (nothing read from it may then be kept). Something made from the
 * metadata read at generation g is current as long as this is still g.
 */
export function metadataGeneration(db: Queryable): number | undefined {
  if (!CACHES_ON) return undefined;
  const watch = watchOf(db);
  return watch?.subscription.live ? watch.generation : undefined;
}
