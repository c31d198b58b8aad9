/** How often the event loop turns while some work runs: for the tests of work that must not hold it. */

/** The work's result, and how many times the event loop's check phase ran while the work ran. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const count = () => {
    if (!running) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  try {
    return { result: await work(), turns };
  } finally {
    running = false;
  }
}
