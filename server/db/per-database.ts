/**
 * What is read from the database once per handle and kept: the org's metadata (objects, fields, record types,
 * layouts, picklist values). It changes when a server starts with new metadata files (loadOrgMetadata), which
 * may happen while other servers on the same PostgreSQL database are running: every statement that changes a
 * metadata table notifies org_metadata_changed at commit (migration 016), and each handle that can listen
 * reads again after a notification. While notifications may be missed (the listening connection is down,
 * or could not be opened), nothing is kept: every call reads. A read that fails is not kept either;
 * forget() drops what was kept.
 */
import type { Database, Listening, Queryable } from './connection.ts';

export const ORG_METADATA_CHANGED = 'org_metadata_changed';
/** How long after a failed LISTEN the next call tries again (calls meanwhile read without keeping). */
const RETRY_MS = 5_000;

export interface PerDatabase<T> {
  (db: Queryable): Promise<T>;
  forget(db: Queryable): void;
}

/** A database handle's subscription to metadata changes, shared by every per-database value. */
interface Watch {
  /** Bumped by every notification: a value read before it is not current. */
  generation: number;
  listening: Listening | null;
  subscribing: Promise<void> | null;
  retryAt: number;
}

const watches = new WeakMap<Queryable, Watch>();

/** The watch of a handle that can listen (a Database); undefined for one that cannot (a transaction's), whose values are kept as long as it lives. */
function watchOf(db: Queryable): Watch | undefined {
  if (typeof (db as Partial<Database>).listen !== 'function') return undefined;
  let watch = watches.get(db);
  if (!watch) watches.set(db, (watch = { generation: 0, listening: null, subscribing: null, retryAt: 0 }));
  return watch;
}

function subscribe(db: Database, watch: Watch): Promise<void> {
  if (Date.now() < watch.retryAt) return Promise.resolve();
  watch.subscribing ??= db
    .listen(ORG_METADATA_CHANGED, () => {
      // A change, or (null) notifications that may have been missed: whatever was read before is stale.
      watch.generation++;
    })
    .then(
      (listening) => {
        watch.listening = listening;
      },
      (error: unknown) => {
        watch.retryAt = Date.now() + RETRY_MS;
        console.error('Org metadata could not subscribe to changes; reading it at every call meanwhile:', error);
      },
    )
    .finally(() => {
      watch.subscribing = null;
    });
  return watch.subscribing;
}

interface Kept<T> {
  value: Promise<T>;
  generation: number;
}

export function oncePerDatabase<T>(read: (db: Queryable) => Promise<T>): PerDatabase<T> {
  const kept = new WeakMap<Queryable, Kept<T>>();
  const isCurrent = (entry: Kept<T>, watch: Watch | undefined) => !watch || (entry.generation === watch.generation && watch.listening?.live === true);

  const readAndKeep = (db: Queryable, watch: Watch | undefined): Promise<T> => {
    const value = read(db);
    // Kept only when a change made during the read would be heard: its notification bumps the generation.
    if (watch && watch.listening?.live !== true) return value;
    const entry = { value, generation: watch?.generation ?? 0 };
    kept.set(db, entry);
    value.catch(() => {
      if (kept.get(db) === entry) kept.delete(db);
    });
    return value;
  };

  const get = (db: Queryable): Promise<T> => {
    const watch = watchOf(db);
    const entry = kept.get(db);
    if (entry && isCurrent(entry, watch)) return entry.value;
    // Subscribed before the first read, so that a change made during it is heard.
    if (watch && !watch.listening) {
      return subscribe(db as Database, watch).then(() => {
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
  const watch = watchOf(db);
  return watch?.listening?.live === true ? watch.generation : undefined;
}
