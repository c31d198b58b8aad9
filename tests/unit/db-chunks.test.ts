import { describe, expect, it } from 'vitest';
import { CHUNKS_AT_ONCE, inChunks } from '../../server/db/chunks.ts';

/** A statement's stand-in: resolves after `ms`, noting how many were under way at once. */
function counter() {
  let running = 0;
  let most = 0;
  const started: number[][] = [];
  const run = async (chunk: number[], ms = 5) => {
    started.push(chunk);
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, ms * (chunk[0] % 3 === 0 ? 3 : 1)));
    running--;
    return chunk.map((item) => item * 10);
  };
  return { run, started, most: () => most };
}

describe('inChunks', () => {
  it('runs each chunk once, two at a time, the results in the chunks’ order', async () => {
    const items = Array.from({ length: 23 }, (_, index) => index);
    const { run, started, most } = counter();
    const results = await inChunks(items, 5, (chunk) => run(chunk));
    expect(results).toEqual([0, 5, 10, 15, 20].map((start) => items.slice(start, start + 5).map((item) => item * 10)));
    expect(started.map((chunk) => chunk[0]).sort((a, b) => a - b)).toEqual([0, 5, 10, 15, 20]);
    expect(CHUNKS_AT_ONCE).toBe(2);
    expect(most()).toBe(CHUNKS_AT_ONCE);
  });

  it('runs nothing for no items, and one chunk alone', async () => {
    const { run, most } = counter();
    expect(await inChunks([], 5, (chunk) => run(chunk))).toEqual([]);
    expect(await inChunks([1, 2], 5, (chunk) => run(chunk))).toEqual([[10, 20]]);
    expect(most()).toBe(1);
  });

  it('starts no chunk after a failure, and throws it once those under way are done', async () => {
    const started: number[] = [];
    let finished = 0;
    const failing = inChunks(
      Array.from({ length: 50 }, (_, index) => index),
      5,
      async (chunk) => {
        started.push(chunk[0]);
        if (chunk[0] === 5) throw new Error('chunk 5 failed');
        await new Promise((resolve) => setTimeout(resolve, 20));
        finished++;
        return chunk;
      },
    );
    await expect(failing).rejects.toThrow('chunk 5 failed');
    expect(started).toEqual([0, 5]);
    expect(finished).toBe(1);
  });
});
