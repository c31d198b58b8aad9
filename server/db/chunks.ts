/**
 * Statements over many values, a chunk of values each, run two at a time: an import's dry run reads its
 * records, references and duplicates this way. On PostgreSQL each statement is one backend's work, so two at
 * once use both cores of the machines this runs on while the server waits; on PGlite, which runs one statement
 * at a time, the second waits its turn. Inside a transaction (one connection) the driver runs them in turn.
 */

/** Chunks whose statements are under way at once. */
export const CHUNKS_AT_ONCE = 2;

/**
 * Runs `run` on each chunk of `size` items, at most CHUNKS_AT_ONCE at once: the results in the chunks' order.
 * After a failure no further chunk is started, and the first failure is thrown once those under way are done.
 */
export async function inChunks<T, R>(items: readonly T[], size: number, run: (chunk: T[]) => Promise<R>): Promise<R[]> {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  const results: R[] = new Array<R>(chunks.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < chunks.length) {
      const index = next++;
      try {
        results[index] = await run(chunks[index]);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.min(CHUNKS_AT_ONCE, chunks.length) }, worker);
  const settled = await Promise.allSettled(workers);
  const failure = settled.find((one) => one.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
