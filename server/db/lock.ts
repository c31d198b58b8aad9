/**
 * PGlite allows one process per data directory. The lock is a file holding the owner's pid, created
 * exclusively; a lock whose process is gone (killed) is stale and taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The live process, other than this one, that holds the lock at lockPath; null when none does. */
function liveOwner(lockPath: string): number | null {
  const owner = Number(readFileSync(lockPath, 'utf8'));
  return Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner) ? owner : null;
}

/**
 * Throws DataDirectoryLockedError when a live process holds the lock of dataDir; takes nothing. A server
 * checks this first, so that a second one is refused at once rather than after loading everything else.
 */
export function assertDataDirectoryFree(dataDir: string): void {
  let owner: number | null = null;
  try {
    owner = liveOwner(join(dataDir, 'server.lock'));
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
    let owner: number | null;
    try {
      owner = liveOwner(lockPath);
    } catch {
      continue; // Released between our attempt and the read: try again.
    }
    if (owner !== null) throw new DataDirectoryLockedError(dataDir, owner);
    // Stale: its process is gone. Remove it and race for a fresh one; only one exclusive create wins.
    try {
      unlinkSync(lockPath);
    } catch {
      // Another process removed it first.
    }
  }
  throw new Error(`Could not take the lock of ${dataDir}`);
}
