/** Giving freed memory back when the server is quiet (server/malloc-trim.ts): when trim runs, and that it frees. */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadMallocTrim, QUIET_MS, trimWhenQuiet } from '../../server/malloc-trim.ts';

const ROOT = resolve(import.meta.dirname, '../..');

describe('trimWhenQuiet', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('trims after the first quiet second from the start, then once per quiet spell, never while requests come', () => {
    const server = new EventEmitter();
    const trim = vi.fn();
    const stop = trimWhenQuiet(server, trim);
    vi.advanceTimersByTime(QUIET_MS);
    expect(trim, 'the memory freed while starting').toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(QUIET_MS * 5);
    expect(trim, 'nothing new to give back while nothing came').toHaveBeenCalledTimes(1);

    for (let second = 0; second < 5; second++) {
      server.emit('request');
      vi.advanceTimersByTime(QUIET_MS);
    }
    expect(trim, 'a request in every second').toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(QUIET_MS);
    expect(trim, 'the first quiet second after them').toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(QUIET_MS * 5);
    expect(trim).toHaveBeenCalledTimes(2);

    stop();
    server.emit('request');
    vi.advanceTimersByTime(QUIET_MS * 3);
    expect(trim, 'stopped').toHaveBeenCalledTimes(2);
    expect(server.listenerCount('request')).toBe(0);
  });
});

describe('loadMallocTrim', () => {
  it.skipIf(process.platform !== 'linux')('gives the memory malloc kept after a free back to the system', async () => {
    expect(await loadMallocTrim(), 'malloc_trim found in glibc').not.toBeNull();
    // In a process of its own: 180 MB in blocks below malloc's mmap threshold, freed, then trimmed.
    const script = `
      const { loadMallocTrim } = await import(${JSON.stringify(resolve(ROOT, 'server/malloc-trim.ts'))});
      const rss = () => Math.round(process.memoryUsage.rss() / 1048576);
      let blocks = Array.from({ length: 3000 }, () => Buffer.alloc(60000, 1));
      const full = rss();
      blocks = null;
      globalThis.gc();
      globalThis.gc();
      const freed = rss();
      (await loadMallocTrim())();
      console.log(JSON.stringify({ full, freed, trimmed: rss() }));
    `;
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const { full, freed, trimmed } = JSON.parse(run.stdout) as Record<string, number>;
    expect(full - freed, 'malloc keeps the freed blocks').toBeLessThan(60);
    expect(freed - trimmed, `RSS ${full} MB full, ${freed} MB freed, ${trimmed} MB trimmed`).toBeGreaterThan(120);
  });
});
