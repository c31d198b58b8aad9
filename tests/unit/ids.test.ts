import { describe, expect, it } from 'vitest';
import { idSuffix, keyPrefixOf, makeId, MASTER_RECORD_TYPE_ID, toId18 } from '../../server/platform/core/ids.ts';

describe('toId18', () => {
  it.each([
    // No capital letters: every 5-character chunk contributes 0, which is A.
    ['001000000000001', '001000000000001AAA'],
    ['012000000000000', '012000000000000AAA'],
    // The default contact: the C of a1C8d is the 3rd character of chunk 1 (bit 2, 4 = E).
    ['a1C8d0000000001', 'a1C8d0000000001EAA'],
    // A real-world account id: chunk 3 "Gv7qJ" has capitals at positions 0 and 4: 1 + 16 = 17 = R.
    ['0015000000Gv7qJ', '0015000000Gv7qJAAR'],
    // All capitals: 31 = 5 in every chunk; bits 1 and 3 (B, D): 2 + 8 = 10 = K.
    ['ABCDEFGHIJKLMNO', 'ABCDEFGHIJKLMNO555'],
    ['aBcDeaBcDeaBcDe', 'aBcDeaBcDeaBcDeKKK'],
  ])('converts %s to %s', (id15, id18) => {
    expect(toId18(id15)).toBe(id18);
    expect(idSuffix(id15)).toBe(id18.slice(15));
  });

  it('gives back an 18-character id whose suffix matches, and normalises the case of the suffix', () => {
    expect(toId18('0015000000Gv7qJAAR')).toBe('0015000000Gv7qJAAR');
    expect(toId18('0015000000Gv7qJaar')).toBe('0015000000Gv7qJAAR');
    expect(toId18(MASTER_RECORD_TYPE_ID)).toBe(MASTER_RECORD_TYPE_ID);
  });

  it('tells ids that differ only in case apart, as the suffix is there to do', () => {
    expect(toId18('0015000000gv7qj')).toBe('0015000000gv7qjAAA');
    expect(toId18('0015000000Gv7qJ')).not.toBe(toId18('0015000000gv7qj'));
  });

  it.each([
    ['empty', ''],
    ['14 characters', '00100000000000'],
    ['16 characters', '0010000000000010'],
    ['17 characters', '00100000000000100'],
    ['19 characters', '001000000000001AAAA'],
    ['a character that is not alphanumeric', '001000000000-01'],
    ['a space', '001 00000000001'],
    ['a non-ASCII letter', '00100000000000é'],
    ['an 18-character id with a wrong suffix', '001000000000001AAB'],
    ['an 18-character id with a suffix of another id', '0015000000gv7qjAAR'],
    ['a bad character in the suffix', '001000000000001AA-'],
  ])('refuses %s', (_name, text) => {
    expect(toId18(text)).toBeNull();
  });
});

describe('makeId', () => {
  it('builds the 18-character id of the n-th record: key prefix, instance, reserved 0, base-62 sequence, suffix', () => {
    expect(makeId('a1C', 1)).toBe('a1C8d0000000001EAA');
    expect(makeId('a1C', 61)).toBe(`a1C8d000000000z${idSuffix('a1C8d000000000z')}`);
    expect(makeId('a1C', 62).slice(0, 15)).toBe('a1C8d0000000010');
    const id = makeId('001', 123456789);
    expect(id).toHaveLength(18);
    expect(keyPrefixOf(id)).toBe('001');
    expect(toId18(id)).toBe(id);
    expect(toId18(id.slice(0, 15))).toBe(id);
  });

  it('issues ids that sort byte-wise in the order they were issued', () => {
    const sequences = [
      0,
      1,
      9,
      10,
      35,
      36,
      61,
      62,
      63,
      3843,
      3844,
      3845,
      238327,
      238328,
      62 ** 5,
      62 ** 6 - 1,
      62 ** 6,
      62 ** 8,
      Number.MAX_SAFE_INTEGER,
    ];
    let seed = 7;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      sequences.push(seed % 10_000_000);
    }
    const issued = [...new Set(sequences)].sort((a, b) => a - b).map((sequence) => makeId('a1C', sequence));
    const byteOrder = [...issued].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byteOrder).toEqual(issued);
    expect(new Set(issued).size).toBe(issued.length);
  });

  it('refuses a bad key prefix and a sequence out of range', () => {
    expect(() => makeId('a1', 1)).toThrow(/prefix/);
    expect(() => makeId('a-C', 1)).toThrow(/prefix/);
    expect(() => makeId('a1C', -1)).toThrow(/sequence/i);
    expect(() => makeId('a1C', 1.5)).toThrow(/sequence/i);
    // Nine base-62 digits hold every safe integer (62^9 > 2^53): beyond that, the sequence is refused.
    expect(makeId('a1C', Number.MAX_SAFE_INTEGER)).toHaveLength(18);
    expect(() => makeId('a1C', Number.MAX_SAFE_INTEGER + 1)).toThrow(/sequence/i);
  });
});
