/**
 * One commit at a time per object. A commit plans its rows (new, changed) from the records as they are, then
 * writes them in many transactions: two commits of the same file at once would both plan its new rows as new and
 * create each twice. So commits of one object wait for each other: within the process by a queue per database
 * handle and object, and across processes on PostgreSQL by an advisory lock, which a transaction of its own takes
 * and holds for the commit's duration (PGlite is opened by one process only, so its queue is enough: the commit's
 * own transactions could not run beside one held open on its single session).
 */
import type { Database } from '../../db/connection.ts';

const queues = new WeakMap<Database, Map<string, Promise<void>>>();

/** Runs `commit` once no other commit of the object is under way on this database, in this process or another. */
export async function oneCommitAtATime<T>(db: Database, objectApiName: string, commit: () => Promise<T>): Promise<T> {
  let perObject = queues.get(db);
  if (!perObject) queues.set(db, (perObject = new Map()));
  const before = perObject.get(objectApiName) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  perObject.set(objectApiName, mine);
  try {
    await before;
    return db.kind === 'postgres' ? await underAdvisoryLock(db, objectApiName, commit) : await commit();
  } finally {
    done();
    if (perObject.get(objectApiName) === mine) perObject.delete(objectApiName);
  }
}

/** Runs `commit` while a transaction of its own holds the object's advisory lock (PostgreSQL). */
async function underAdvisoryLock<T>(db: Database, objectApiName: string, commit: () => Promise<T>): Promise<T> {
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`import commit of ${objectApiName}`]);
    locked();
    await released;
  });
  // A transaction that fails before it has the lock fails the commit, which has not begun.
  await Promise.race([lockTaken, holding]);
  try {
    return await commit();
  } finally {
    release();
    await holding;
  }
}
