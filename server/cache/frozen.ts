/**
 * What a cache keeps is shared by every request that gets it, and its JSON (and Brotli) is made once per object:
 * changing it would change answers already given and make its JSON lie. Under test (Vitest, or FREEZE_CACHED=1)
 * every value put in a cache is deep-frozen, so that code which changes one fails there, loudly; in production
 * this costs nothing.
 */
const FREEZE = process.env.VITEST !== undefined || process.env.FREEZE_CACHED === '1';

/** value, deep-frozen under test: call it on whatever a cache is about to keep. */
export function frozenUnderTest<T>(value: T): T {
  if (FREEZE) deepFreeze(value);
  return value;
}

function deepFreeze(value: unknown): void {
  const pending = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    // Bytes (a body, a picture) cannot be frozen; Maps and Sets would stay changeable anyway.
    if (typeof current !== 'object' || current === null || Object.isFrozen(current) || ArrayBuffer.isView(current))
      continue;
    if (current instanceof Map || current instanceof Set) continue;
    Object.freeze(current);
    for (const item of Object.values(current)) pending.push(item);
  }
}
