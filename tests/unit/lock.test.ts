/**
 * The data-directory lock, in one process. Other owners are real processes: a live one (a child that
 * sleeps) and a dead one (a child that has exited), whose pids are written into the lock file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertDataDirectoryFree,
  DataDirectoryLockedError,
  lockDataDirectory,
  removeStaleLock,
} from '../../server/db/lock.ts';

let dir: string;
let lockFile: string;
const children: ChildProcess[] = [];

function sleeper(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lock-test-'));
  lockFile = join(dir, 'server.lock');
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDirectory', () => {
  it('creates the directory and a lock file holding this process id; release removes it', () => {
    const nested = join(dir, 'a', 'b');
    const release = lockDataDirectory(nested);
    expect(readFileSync(join(nested, 'server.lock'), 'utf8')).toBe(String(process.pid));
    // Written whole under a name of its own, then linked: nothing else is left beside it.
    expect(readdirSync(nested)).toEqual(['server.lock']);
    release();
    expect(existsSync(join(nested, 'server.lock'))).toBe(false);
    release(); // twice is harmless
  });

  it('refuses a directory whose lock belongs to a live process, naming the directory and the owner', () => {
    const owner = sleeper();
    writeFileSync(lockFile, String(owner.pid));
    let error: unknown;
    try {
      lockDataDirectory(dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataDirectoryLockedError);
    expect((error as DataDirectoryLockedError).dataDir).toBe(dir);
    expect((error as DataDirectoryLockedError).ownerPid).toBe(owner.pid);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toContain(String(owner.pid));
    expect(readFileSync(lockFile, 'utf8')).toBe(String(owner.pid));
  });

  it('takes over the lock of a process that is gone', async () => {
    writeFileSync(lockFile, String(await deadPid()));
    const release = lockDataDirectory(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('takes over a lock file that holds no process id', () => {
    writeFileSync(lockFile, 'not a pid');
    const release = lockDataDirectory(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
  });

  it('does not remove, on release, a lock that another process has taken since', () => {
    const release = lockDataDirectory(dir);
    const other = sleeper();
    writeFileSync(lockFile, String(other.pid));
    release();
    expect(readFileSync(lockFile, 'utf8')).toBe(String(other.pid));
  });
});

describe('removeStaleLock', () => {
  it('removes the lock when it still holds the stale owner', async () => {
    const stale = String(await deadPid());
    writeFileSync(lockFile, stale);
    removeStaleLock(lockFile, stale);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps the lock another process took over after it was read as stale', async () => {
    const stale = String(await deadPid());
    const taker = sleeper();
    // Read as stale, then taken over before the removal.
    writeFileSync(lockFile, String(taker.pid));
    removeStaleLock(lockFile, stale);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(taker.pid));
    expect(readdirSync(dir)).toEqual(['server.lock']);
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryLockedError);
  });

  it('does nothing when the lock is gone already', () => {
    removeStaleLock(lockFile, '12345');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('assertDataDirectoryFree', () => {
  it('passes a directory without a lock, or with the lock of a process that is gone, and takes nothing', async () => {
    assertDataDirectoryFree(join(dir, 'does-not-exist'));
    assertDataDirectoryFree(dir);
    expect(existsSync(lockFile)).toBe(false);
    const dead = String(await deadPid());
    writeFileSync(lockFile, dead);
    assertDataDirectoryFree(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(dead);
  });

  it('throws DataDirectoryLockedError when a live process holds the lock', () => {
    const owner = sleeper();
    writeFileSync(lockFile, String(owner.pid));
    expect(() => assertDataDirectoryFree(dir)).toThrow(DataDirectoryLockedError);
  });

  it('passes the lock of this very process (the server checks before it locks)', () => {
    const release = lockDataDirectory(dir);
    assertDataDirectoryFree(dir);
    release();
  });
});
