/**
 * Platform-style record ids: 15 case-sensitive characters (3-character key prefix, 2-character
 * instance, 1 reserved, 9-character base-62 sequence) plus a 3-character case-safe suffix.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SUFFIX_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const ID_BODY = /^[a-zA-Z0-9]{15}$/;

/** The id instance code of records created by this product. */
const INSTANCE = '8d';

export { MASTER_RECORD_TYPE_ID } from '../../../common/platform.ts';

/** The 3-character suffix that makes a 15-character id unique without regard to case. */
export function idSuffix(id15: string): string {
  let suffix = '';
  for (let chunk = 0; chunk < 3; chunk++) {
    let bits = 0;
    for (let i = 0; i < 5; i++) {
      const c = id15.charCodeAt(chunk * 5 + i);
      if (c >= 65 && c <= 90) bits |= 1 << i;
    }
    suffix += SUFFIX_ALPHABET[bits];
  }
  return suffix;
}

/**
 * Returns the 18-character form of a 15- or 18-character id, or null when the text is not an id.
 * An 18-character id whose suffix does not match its body is not an id.
 */
export function toId18(id: string): string | null {
  if (id.length === 15) return ID_BODY.test(id) ? id + idSuffix(id) : null;
  if (id.length === 18) {
    const body = id.slice(0, 15);
    if (!ID_BODY.test(body)) return null;
    return id.slice(15).toUpperCase() === idSuffix(body) ? body + idSuffix(body) : null;
  }
  return null;
}

/** Builds the id of the sequence-th record of the object with the given key prefix. */
export function makeId(keyPrefix: string, sequence: number): string {
  if (!/^[a-zA-Z0-9]{3}$/.test(keyPrefix)) throw new Error(`Bad key prefix: ${keyPrefix}`);
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new Error(`Bad sequence: ${sequence}`);
  let digits = '';
  let n = sequence;
  // 62^9 exceeds Number.MAX_SAFE_INTEGER: every safe sequence fits in nine digits.
  for (let i = 0; i < 9; i++) {
    digits = BASE62[n % 62] + digits;
    n = Math.floor(n / 62);
  }
  const body = `${keyPrefix + INSTANCE}0${digits}`;
  return body + idSuffix(body);
}

/** The key prefix (first three characters) of an id. */
export function keyPrefixOf(id: string): string {
  return id.slice(0, 3);
}
