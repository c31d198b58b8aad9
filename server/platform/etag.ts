import { createHash } from 'node:crypto';

/** The platform's eTag of a representation: 32 hex characters that change whenever its content does. */
export function etagOf(value: unknown): string {
  return createHash('md5').update(JSON.stringify(value)).digest('hex');
}

/** The JSON of representations serialized already: ones kept in memory, and ones whose eTag hashed it. */
const serialized = new WeakMap<object, string>();

/** The JSON of a representation, serialized once for as long as it lives (it must not change meanwhile). */
export function jsonOf(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) serialized.set(value, (text = JSON.stringify(value)));
  return text;
}

/**
 * A representation with its eTag (of the rest) first, as `{ eTag: etagOf(body), ...body }` is, from one
 * serialization: the text hashed is the answer's too. body has no eTag of its own nor keys that are array
 * indexes (which JSON puts first, before eTag).
 */
export function withEtagFirst<T extends object>(body: T): { eTag: string } & T {
  const text = JSON.stringify(body);
  const eTag = createHash('md5').update(text).digest('hex');
  const representation = { eTag, ...body };
  serialized.set(representation, text === '{}' ? `{"eTag":"${eTag}"}` : `{"eTag":"${eTag}",${text.slice(1)}`);
  return representation;
}
