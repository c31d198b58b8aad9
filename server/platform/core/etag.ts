import { hash } from 'node:crypto';

/** The platform's eTag of a text: 32 hex characters (one-shot hashing: no Hash object per call). */
const md5Hex = (text: string) => hash('md5', text, 'hex');

/** The platform's eTag of a representation: 32 hex characters that change whenever its content does. */
export function etagOf(value: unknown): string {
  return md5Hex(JSON.stringify(value));
}

/** The eTag of a representation from its JSON (etagOf(value) is etagOfJson(JSON.stringify(value))). */
export const etagOfJson = md5Hex;

/** The JSON of representations serialized already: ones kept in memory, and ones whose eTag hashed it. */
const serialized = new WeakMap<object, string>();

/** The JSON of a representation, serialized once for as long as it lives (it must not change meanwhile). */
export function jsonOf(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) serialized.set(value, (text = JSON.stringify(value)));
  return text;
}

/** Keeps text, which must be JSON.stringify(value), as value's JSON for jsonOf. */
export function keepJson(value: object, text: string): void {
  serialized.set(value, text);
}

/**
 * JSON.stringify(tree) for maps by name nested depth levels deep whose leaves are representations kept in
 * memory (object infos, layouts): each leaf's JSON is its jsonOf, serialized once for as long as it lives.
 * Keys come in the order JSON.stringify puts them (Object.keys'); undefined entries are left out as it does.
 */
export function jsonOfTree(tree: object, depth: number): string {
  if (depth === 0) return jsonOf(tree);
  const entries: string[] = [];
  for (const key of Object.keys(tree)) {
    const value = (tree as Record<string, object | undefined>)[key];
    if (value !== undefined) entries.push(`${JSON.stringify(key)}:${jsonOfTree(value, depth - 1)}`);
  }
  return `{${entries.join(',')}}`;
}

/**
 * The eTags of the leaves of maps by name nested depth levels deep, in the same maps: what a representation
 * made of parts that each carry the eTag of all of their content (records, object infos, layouts) can hash for
 * its own eTag instead of all of its text, which changes exactly when one of them does.
 */
export function etagsOfTree(tree: object, depth: number): unknown {
  if (depth === 0) return (tree as { eTag: string }).eTag;
  const etags: Record<string, unknown> = {};
  for (const key of Object.keys(tree)) {
    const value = (tree as Record<string, object | undefined>)[key];
    if (value !== undefined) etags[key] = etagsOfTree(value, depth - 1);
  }
  return etags;
}

/**
 * A representation with its eTag first, as `{ eTag: etagOf(body), ...body }` is, from one serialization. body
 * has no eTag of its own nor keys that are array indexes (which JSON puts first, before eTag). text, when
 * given, is JSON.stringify(body), built otherwise. The eTag is the hash of text, or the one given (which must
 * change whenever text does).
 */
export function withEtagFirst<T extends object>(
  body: T,
  text = JSON.stringify(body),
  eTag = md5Hex(text),
): { eTag: string } & T {
  const representation = { eTag, ...body };
  serialized.set(representation, text === '{}' ? `{"eTag":"${eTag}"}` : `{"eTag":"${eTag}",${text.slice(1)}`);
  return representation;
}
