/**
 * The payload of a Contact Us notification (migrations 023 and 024) read into what it touches: each side of each
 * changed representative and its id, or everything when it says `*` or anything not understood.
 */
import { describe, expect, it } from 'vitest';
import {
  contactRecordOf,
  isStale,
  parseContactChange,
  touchesDefaultContact,
  touchesFilter,
  touchesRecord,
  type ContactFilter,
} from '../../server/cache/contact-changes.ts';

const texas = ['United States', 'Texas', ['Acme', 'Globex'], false];
const ID = 'a1C8d0000000002EAA';
const OTHER_ID = 'a1C8d0000000003EAA';
const ohio = ['United States', 'Ohio', ['Acme'], false];
const filter = (country: string | null, state: string | null, brands: string[] = []): ContactFilter => ({
  country,
  state,
  brands,
});

describe('parseContactChange', () => {
  it('reads each side of each row', () => {
    expect(parseContactChange(JSON.stringify([[null, texas, ID]]))).toEqual({
      everything: false,
      sides: [{ country: 'United States', state: 'Texas', brands: ['Acme', 'Globex'], isDefault: false }],
      records: new Set([ID.slice(0, 15)]),
    });
  });

  it('reads `*`, the size fallback of the trigger, as everything', () => {
    expect(parseContactChange('*')).toEqual({ everything: true });
  });

  it('reads an operation name (TRUNCATE, a picklist change) or no payload as everything', () => {
    for (const payload of ['TRUNCATE', 'UPDATE', '', null, undefined]) {
      expect(parseContactChange(payload).everything).toBe(true);
    }
  });

  it('reads malformed JSON or rows of another shape as everything', () => {
    for (const payload of [
      '[',
      '[[1,2]]',
      '[["a"]]',
      '[[null,["x","y",null]]]',
      '[[null,["x","y","z",false]]]',
      '{}',
    ]) {
      expect(parseContactChange(payload).everything).toBe(true);
    }
  });

  it('reads a side without brands as no brands', () => {
    const change = parseContactChange(JSON.stringify([[['Canada', null, null, true], null, ID]]));
    expect(change).toEqual({
      everything: false,
      sides: [{ country: 'Canada', state: null, brands: [], isDefault: true }],
      records: new Set([ID.slice(0, 15)]),
    });
  });

  it('reads a row without its id (migration 023) as touching every record', () => {
    const change = parseContactChange(JSON.stringify([[null, texas]]));
    expect(change.everything).toBe(false);
    expect(touchesRecord(change, OTHER_ID)).toBe(true);
  });

  it('reads a row whose id is not text as everything', () => {
    expect(parseContactChange(JSON.stringify([[null, texas, 42]])).everything).toBe(true);
  });
});

describe('what a change touches', () => {
  it('an update in Texas touches Texas, its country and its brands, not Ohio nor another brand', () => {
    const change = parseContactChange(JSON.stringify([[texas, texas]]));
    expect(touchesFilter(change, filter('United States', 'Texas', ['Acme']))).toBe(true);
    expect(touchesFilter(change, filter('United States', null))).toBe(true);
    expect(touchesFilter(change, filter(null, null, ['Globex']))).toBe(true);
    expect(touchesFilter(change, filter(null, null))).toBe(true);
    expect(touchesFilter(change, filter('United States', 'Ohio'))).toBe(false);
    expect(touchesFilter(change, filter('United States', 'Texas', ['Initech']))).toBe(false);
    expect(touchesFilter(change, filter('Canada', null))).toBe(false);
    expect(touchesDefaultContact(change)).toBe(false);
  });

  it('a move from Texas to Ohio touches both', () => {
    const change = parseContactChange(JSON.stringify([[texas, ohio]]));
    expect(touchesFilter(change, filter('United States', 'Texas'))).toBe(true);
    expect(touchesFilter(change, filter('United States', 'Ohio'))).toBe(true);
    expect(touchesFilter(change, filter('United States', 'California'))).toBe(false);
  });

  it('a change of the default contact, on either side, touches the default contacts', () => {
    const made = ['United States', 'Wisconsin', ['Acme'], true];
    const was = ['United States', 'Wisconsin', ['Acme'], false];
    expect(touchesDefaultContact(parseContactChange(JSON.stringify([[was, made]])))).toBe(true);
    expect(touchesDefaultContact(parseContactChange(JSON.stringify([[made, was]])))).toBe(true);
    expect(touchesDefaultContact(parseContactChange(JSON.stringify([[made, null]])))).toBe(true);
  });

  it('everything touches every filter and the default contacts', () => {
    const change = parseContactChange('*');
    expect(touchesFilter(change, filter('Canada', 'Ontario', ['Acme']))).toBe(true);
    expect(touchesDefaultContact(change)).toBe(true);
  });
});

describe('a change of one record', () => {
  it('touches that record, by its 18- or 15-character id, and no other', () => {
    const change = parseContactChange(JSON.stringify([[texas, texas, ID]]));
    expect(touchesRecord(change, ID)).toBe(true);
    expect(touchesRecord(change, ID.slice(0, 15))).toBe(true);
    expect(touchesRecord(change, OTHER_ID)).toBe(false);
  });

  it('makes getContact of that record stale, and keeps another’s', () => {
    const change = parseContactChange(JSON.stringify([[texas, null, ID]]));
    expect(isStale(contactRecordOf({ recordId: ID }), change)).toBe(true);
    expect(isStale(contactRecordOf({ recordId: OTHER_ID }), change)).toBe(false);
    expect(isStale(contactRecordOf({ recordId: OTHER_ID }), parseContactChange('*'))).toBe(true);
    expect(contactRecordOf({})).toBe('everything');
    expect(contactRecordOf(null)).toBe('everything');
  });
});
