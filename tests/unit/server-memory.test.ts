/**
 * The memory figures of npm run bench:api (scripts/lib/server-memory.ts): a process's RSS as /proc gives it, and
 * the lines that say whether each target is met.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { memoryLines, peakResidentBytes, residentBytes, sampleResident } from '../../scripts/lib/server-memory.ts';

const MB = 1024 * 1024;

describe('the RSS of a process', () => {
  it('reads this process’s own, in the range Node reports', () => {
    const read = residentBytes(process.pid);
    const reported = process.memoryUsage().rss;
    expect(read).toBeGreaterThan(reported * 0.5);
    expect(read).toBeLessThan(reported * 2);
  });

  it('keeps the largest sample, also one taken while it grows', async () => {
    const sampler = sampleResident(process.pid, 10);
    const before = residentBytes(process.pid);
    const held = Buffer.alloc(64 * MB, 1);
    await new Promise((done) => setTimeout(done, 50));
    const peak = sampler.stop();
    expect(held.length).toBe(64 * MB);
    expect(peak).toBeGreaterThan(before + 32 * MB);
  });

  it('reads the peak the process has had, which stays where it was once the memory is given back', async () => {
    // A child that fills 128 MB (mapped on its own, so that freeing it unmaps it), frees it, and waits.
    const child = spawn(
      process.execPath,
      [
        '--expose-gc',
        '-e',
        `let held = Buffer.alloc(${128 * MB}, 1); held = null; globalThis.gc(); console.log('freed'); setTimeout(() => {}, 30000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(child.stdout!, 'data');
      const [peak, resident] = [peakResidentBytes(child.pid!), residentBytes(child.pid!)];
      expect(peak - resident, `peak ${peak}, RSS ${resident}`).toBeGreaterThan(64 * MB);
    } finally {
      child.kill();
    }
  });
});

describe('the figures against their targets', () => {
  it('meets each target at its bound and misses it just past', () => {
    const met = memoryLines('pglite', { idles: [250 * MB], peak: 325 * MB, after: 275 * MB, afterSeconds: 60 });
    expect(met).toHaveLength(3);
    expect(met[0]).toMatch(/RSS idle after start\s+250 MB\s+target ≤ 250 MB: met/);
    expect(met[1]).toMatch(/325 MB\s+\+30 % of idle; target ≤ \+30 %: met/);
    expect(met[2]).toMatch(/RSS 60 s after the load\s+275 MB\s+\+10 % of idle; target ≤ \+10 %: met/);
    const missed = memoryLines('postgresql', { idles: [151 * MB], peak: 200 * MB, after: 170 * MB, afterSeconds: 60 });
    expect(missed[0]).toMatch(/target ≤ 150 MB: missed/);
    expect(missed[1]).toMatch(/\+32 % of idle; target ≤ \+30 %: missed/);
    expect(missed[2]).toMatch(/\+13 % of idle; target ≤ \+10 %: missed/);
  });

  it('gives the idle RSS of several starts as their median, with their range', () => {
    const idles = [318 * MB, 256 * MB, 249 * MB];
    const lines = memoryLines('pglite', { idles, peak: 300 * MB, after: 260 * MB, afterSeconds: 60 });
    expect(lines[0]).toMatch(/RSS idle after start, median of 3\s+256 MB\s+249 MB to 318 MB; target ≤ 250 MB: missed/);
    expect(lines[1]).toMatch(/\+17 % of idle/);
  });
});
