import { createHash } from 'node:crypto';

/** The platform's eTag of a representation: 32 hex characters that change whenever its content does. */
export function etagOf(value: unknown): string {
  return createHash('md5').update(JSON.stringify(value)).digest('hex');
}
