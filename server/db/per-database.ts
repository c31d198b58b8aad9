/**
 * What is read from the database once per handle and kept: the org's metadata (objects, fields, record types,
 * layouts, picklist values), which changes only when the server starts. A read that fails is not kept, so
 * that the next call reads again; forget() drops what was kept, after a change to what it was read from.
 */
import type { Queryable } from './connection.ts';

export interface PerDatabase<T> {
  (db: Queryable): Promise<T>;
  forget(db: Queryable): void;
}

export function oncePerDatabase<T>(read: (db: Queryable) => Promise<T>): PerDatabase<T> {
  const kept = new WeakMap<Queryable, Promise<T>>();
  const get = (db: Queryable) => {
    let value = kept.get(db);
    if (!value) {
      const reading = read(db);
      kept.set(db, reading);
      reading.catch(() => {
        if (kept.get(db) === reading) kept.delete(db);
      });
      value = reading;
    }
    return value;
  };
  return Object.assign(get, { forget: (db: Queryable) => void kept.delete(db) });
}
