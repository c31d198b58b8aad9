/**
 * Gives the memory that threads have freed back to the system once the server is quiet: glibc's malloc_trim(0),
 * called through koffi (a foreign function interface) after a second in which no request came.
 *
 * Why: glibc's malloc keeps what a thread frees for that thread's next allocations, and gives back only the end
 * of an arena. While the server starts, V8 compiles PGlite's WebAssembly on background threads and frees some
 * 60 to 90 MB of compiler memory, which malloc then keeps in arenas almost empty; the RSS stayed flat at 286 to
 * 343 MB idle. malloc_trim(0) hands the free pages of every arena back (they are mapped again, zeroed, when
 * malloc needs them): 343 → 268 and 312 → 252 MB on PGlite, measured on the built server 5 s after its start.
 * It takes a few milliseconds of the main thread, so it waits for a quiet second and runs once per quiet spell.
 *
 * Elsewhere than on Linux with glibc (musl, macOS) there is no malloc_trim and this does nothing.
 */
import type { EventEmitter } from 'node:events';

/** How long no request may come before the freed memory is given back. */
export const QUIET_MS = 1000;

/** malloc_trim(0) of the C library, or null where it has none. */
export async function loadMallocTrim(): Promise<(() => number) | null> {
  if (process.platform !== 'linux') return null;
  try {
    const { default: koffi } = await import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => trim(0);
  } catch {
    return null; // not glibc
  }
}

/**
 * Calls trim after each quiet spell of server (a Node HTTP server): once a whole QUIET_MS has passed with no new
 * request, and a request came since the last call. The start counts as such a request, so the memory freed while
 * starting is given back too. Returns a function that stops it.
 */
export function trimWhenQuiet(server: EventEmitter, trim: () => unknown): () => void {
  let requests = 0;
  let seen = 0;
  let trimmedAt = -1;
  const counted = () => void requests++;
  server.on('request', counted);
  const timer = setInterval(() => {
    if (requests === seen && requests !== trimmedAt) {
      trimmedAt = requests;
      trim();
    }
    seen = requests;
  }, QUIET_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    server.off('request', counted);
  };
}
