/**
 * The payload of a Contact Us notification (migration 023) read into what it touches: each side of each changed
 * representative, or everything when it says `*` or anything not understood.
 */
import { describe, expect, it } from 'vitest';
import {
  parseContactChange,
  touchesDefaultContact,
  touchesFilter,
  type ContactFilter,
} from '../../server/cache/contact-changes.ts';

const texas = ['United States', 'Texas', ['Acme', 'Globex'], false];
const ohio = ['United States', 'Ohio', ['Acme'], false];
const filter = (country: string | null, state: string | null, brands: string[] = []): ContactFilter => ({
  country,
  state,
  brands,
});

describe('parseContactChange', () => {
  it('reads each side of each row', () => {
    expect(parseContactChange(JSON.stringify([[null, texas]]))).toEqual({
      everything: false,
      sides: [{ country: 'United States', state: 'Texas', brands: ['Acme', 'Globex'], isDefault: false }],
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
    const change = parseContactChange(JSON.stringify([[['Canada', null, null, true], null]]));
    expect(change).toEqual({
      everything: false,
      sides: [{ country: 'Canada', state: null, brands: [], isDefault: true }],
    });
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
