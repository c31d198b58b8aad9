/** Picklist values of org metadata: fixed lists, and countries with their states from the country data. */
import { Country, State } from 'country-state-city';
import { describe, expect, it } from 'vitest';
import { countriesWithStates, picklistEntries } from '../../server/platform/metadata.ts';

describe('picklistEntries', () => {
  it('lists fixed values in the given order, label as value, valid for no controller', () => {
    expect(picklistEntries({ values: ['Zeta', 'Alpha'] })).toEqual([
      { value: 'Zeta', label: 'Zeta', validFor: [] },
      { value: 'Alpha', label: 'Alpha', validFor: [] },
    ]);
  });

  it('lists every country once, by name in English order', () => {
    const countries = picklistEntries({ source: 'countries' });
    const names = countries.map((entry) => entry.value);
    expect(names).toEqual(
      Country.getAllCountries()
        .map((country) => country.name)
        .sort((a, b) => a.localeCompare(b, 'en')),
    );
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('United States');
    expect(countries.every((entry) => entry.label === entry.value && entry.validFor.length === 0)).toBe(true);
  });

  it('lists each state name once, valid for every country that has a state of that name', () => {
    const states = picklistEntries({ source: 'states' });
    const names = states.map((entry) => entry.value);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    const byName = new Map(states.map((entry) => [entry.value, entry.validFor]));
    expect(byName.get('Texas')).toEqual(['United States']);
    expect(byName.get('Ontario')).toEqual(['Canada']);

    // Against the country data directly: the same relation, state name to the countries that have it.
    const expected = new Map<string, Set<string>>();
    for (const country of Country.getAllCountries()) {
      for (const state of State.getStatesOfCountry(country.isoCode)) {
        if (!expected.has(state.name)) expected.set(state.name, new Set());
        expected.get(state.name)!.add(country.name);
      }
    }
    expect(new Set(names)).toEqual(new Set(expected.keys()));
    for (const [name, countries] of expected) expect(new Set(byName.get(name)), name).toEqual(countries);
    // Names shared by several countries exist in the data, and are merged rather than repeated.
    expect(states.some((entry) => entry.validFor.length > 1)).toBe(true);
  });
});

describe('countriesWithStates', () => {
  it('gives each country its states without duplicate names, sorted', () => {
    const countries = countriesWithStates();
    const us = countries.find((country) => country.isoCode === 'US')!;
    expect(us.name).toBe('United States');
    expect(us.states.map((state) => state.name)).toContain('Texas');
    for (const country of countries) {
      const names = country.states.map((state) => state.name);
      expect(new Set(names).size, country.name).toBe(names.length);
      expect(names, country.name).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    }
  });
});
