/** Answers whose body is JSON serialized already: bytes kept by a cache, or text the database built. */
import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';

/** A 200 answer of JSON already serialized from a T, typed as c.json(value) of that T would be. */
export function serializedJson<T>(
  c: Context,
  body: Uint8Array<ArrayBuffer> | string,
  headers: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, 200, 'json'> {
  // The body is the JSON of a T (its producer serialized one), which the compiler cannot see in bytes or text.
  return c.body(body, 200, headers) as unknown as Response & TypedResponse<JSONParsed<T>, 200, 'json'>;
}
