/**
 * PGlite allows one process per data directory. The lock is a file holding the owner's pid. It appears
 * whole: written under a name of its own, then linked to the lock's name, which fails when a lock is
 * there, so another process never reads a half-written one. A lock whose process is gone (killed) is stale
 * and taken over.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another server process (pid ${ownerPid}). ` +
        'Embedded PGlite allows one process per data directory: stop that process, or set DATA_DIR to another directory, or use PostgreSQL (DATABASE_URL).',
    );
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A name beside the lock that no other process uses. */
const privateName = (lockPath: string, what: string) =>
  `${lockPath}.${what}.${process.pid}.${randomBytes(6).toString('hex')}`;

function tryCreate(lockPath: string): boolean {
  const whole = privateName(lockPath, 'new');
  writeFileSync(whole, String(process.pid), { flag: 'wx' });
  try {
    linkSync(whole, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(whole);
  }
}

/**
 * Removes the lock at lockPath if it still holds what was read from it (stale: its process is gone).
 * Another process may have taken it over in the meantime, with a lock of its own: the file is moved aside
 * first, and what it holds decides. A lock that is not the stale one goes back, unless yet another has
 * been made since.
 */
export function removeStaleLock(lockPath: string, staleContent: string): void {
  const aside = privateName(lockPath, 'stale');
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // Another process removed it first.
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleContent) linkSync(aside, lockPath);
  } catch {
    // A newer lock is there already.
  } finally {
    unlinkSync(aside);
  }
}

/** The live process, other than this one, that holds the lock at lockPath (null when none does), and what the lock holds. */
function lockOwner(lockPath: string): { owner: number | null; content: string } {
  const content = readFileSync(lockPath, 'utf8');
  const owner = Number(content);
  return {
    owner: Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner) ? owner : null,
    content,
  };
}

/**
 * Throws DataDirectoryLockedError when a live process holds the lock of dataDir; takes nothing. A server
 * checks this first, so that a second one is refused at once rather than after loading everything else.
 */
export function assertDataDirectoryFree(dataDir: string): void {
  let owner: number | null = null;
  try {
    owner = lockOwner(join(dataDir, 'server.lock')).owner;
  } catch {
    return; // No lock file (or no directory): free.
  }
  if (owner !== null) throw new DataDirectoryLockedError(dataDir, owner);
}

/** Takes the lock of dataDir or throws DataDirectoryLockedError; returns the function that releases it. */
export function lockDataDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(lockPath)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    }
    let lock: { owner: number | null; content: string };
    try {
      lock = lockOwner(lockPath);
    } catch {
      continue; // Released between our attempt and the read: try again.
    }
    if (lock.owner !== null) throw new DataDirectoryLockedError(dataDir, lock.owner);
    // Stale: its process is gone. Remove it and race for a fresh one; only one link wins.
    removeStaleLock(lockPath, lock.content);
  }
  throw new Error(`Could not take the lock of ${dataDir}`);
}
