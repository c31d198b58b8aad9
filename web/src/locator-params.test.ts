import { describe, expect, it } from 'vitest';
import {
  canonicalSearch,
  hasAnyFilter,
  locatorSearch,
  parseLocatorSearch,
  parseNear,
  resolveLocatorFilters,
  unrecognisedFilterMessage,
  unrecognisedFilters,
} from './locator-params';

describe('parseLocatorSearch', () => {
  it('reads the filters and the page', () => {
    expect(parseLocatorSearch('?brand=Arcline&country=United+States&state=New%20York&page=3')).toEqual({
      brand: 'Arcline',
      country: 'United States',
      state: 'New York',
      page: 3,
    });
  });

  it('treats missing, empty and blank values as no filter and page 1', () => {
    expect(parseLocatorSearch('')).toEqual({ brand: null, country: null, state: null, page: 1 });
    expect(parseLocatorSearch('?brand=&country=%20&page=')).toEqual({
      brand: null,
      country: null,
      state: null,
      page: 1,
    });
  });

  it('reads a page only from a plain positive number', () => {
    for (const page of ['0', '-2', '2.5', 'abc', '1e3', '99999999999']) {
      expect(parseLocatorSearch(`?page=${page}`).page, page).toBe(1);
    }
    expect(parseLocatorSearch('?page=007').page).toBe(7);
  });
});

describe('locatorSearch', () => {
  it('writes the filters in a fixed order and leaves page 1 out', () => {
    expect(locatorSearch({ brand: null, country: 'United States', state: null, page: 1 })).toBe(
      '?country=United+States',
    );
    expect(locatorSearch({ state: 'Ontario', country: 'Canada', brand: 'Arcline', page: 2 })).toBe(
      '?brand=Arcline&country=Canada&state=Ontario&page=2',
    );
    expect(locatorSearch({ brand: null, country: null, state: null, page: 1 })).toBe('');
  });

  it('round-trips through parseLocatorSearch', () => {
    const params = { brand: 'A&B', country: 'Côte d’Ivoire', state: 'Abidjan', page: 4 };
    expect(parseLocatorSearch(locatorSearch(params))).toEqual(params);
  });
});

describe('hasAnyFilter', () => {
  it('is true when any of brand, country or state is chosen', () => {
    expect(hasAnyFilter({ brand: null, country: null, state: null })).toBe(false);
    expect(hasAnyFilter({ brand: 'Arcline', country: null, state: null })).toBe(true);
    expect(hasAnyFilter({ brand: null, country: null, state: 'Ontario' })).toBe(true);
  });
});

describe('resolveLocatorFilters', () => {
  const choices = {
    brands: ['Arcline', 'Boltwright'],
    countryStates: { Canada: ['Ontario', 'Quebec'], 'United States': ['New York', 'Texas'], Aruba: [] },
  };

  it('keeps known values', () => {
    expect(resolveLocatorFilters({ brand: 'Arcline', country: 'Canada', state: 'Ontario' }, choices)).toEqual({
      brand: 'Arcline',
      country: 'Canada',
      state: 'Ontario',
    });
  });

  it('corrects the case of values typed into a URL', () => {
    expect(resolveLocatorFilters({ brand: 'ARCLINE', country: 'canada', state: 'ONTARIO' }, choices)).toEqual({
      brand: 'Arcline',
      country: 'Canada',
      state: 'Ontario',
    });
  });

  it('drops unknown values and a state that is not the country’s', () => {
    expect(resolveLocatorFilters({ brand: 'Nope', country: 'Atlantis', state: 'Ontario' }, choices)).toEqual({
      brand: null,
      country: null,
      state: null,
    });
    expect(resolveLocatorFilters({ brand: null, country: 'United States', state: 'Ontario' }, choices)).toEqual({
      brand: null,
      country: 'United States',
      state: null,
    });
  });

  it('needs a country for a state, loaded or not', () => {
    expect(resolveLocatorFilters({ brand: null, country: null, state: 'Ontario' }, choices).state).toBeNull();
    expect(resolveLocatorFilters({ brand: null, country: null, state: 'Ontario' }, {}).state).toBeNull();
  });

  it('keeps the values as given until the choices have loaded', () => {
    expect(resolveLocatorFilters({ brand: 'Whatever', country: 'Canada', state: 'Ontario' }, {})).toEqual({
      brand: 'Whatever',
      country: 'Canada',
      state: 'Ontario',
    });
  });
});

describe('unrecognisedFilters and their message', () => {
  const choices = { brands: ['Arcline', 'Gridmark'], countryStates: { Canada: ['Ontario', 'Quebec'], Germany: [] } };

  it('names the filters of the address that name nothing in the lists, once the lists are loaded', () => {
    const asked = { brand: 'Acme', country: 'Atlantis', state: 'Ontario' };
    const resolved = resolveLocatorFilters(asked, choices);
    expect(unrecognisedFilters(asked, resolved, choices)).toEqual([
      { name: 'brand', value: 'Acme' },
      { name: 'country', value: 'Atlantis' },
      { name: 'state', value: 'Ontario', country: null },
    ]);
    expect(unrecognisedFilters(asked, resolveLocatorFilters(asked, {}), {})).toEqual([]);
    const known = { brand: 'gridmark', country: 'canada', state: 'Yukon' };
    expect(unrecognisedFilters(known, resolveLocatorFilters(known, choices), choices)).toEqual([
      { name: 'state', value: 'Yukon', country: 'Canada' },
    ]);
  });

  it('says what is left out, and why', () => {
    expect(unrecognisedFilterMessage({ name: 'country', value: 'Atlantis' })).toBe(
      'No country “Atlantis” is listed, so the contacts are not filtered by country.',
    );
    expect(unrecognisedFilterMessage({ name: 'state', value: 'Yukon', country: 'Canada' })).toBe(
      'No state or province “Yukon” is listed for Canada, so the contacts are not filtered by state or province.',
    );
    expect(unrecognisedFilterMessage({ name: 'state', value: 'Ontario', country: null })).toContain(
      'listed without a country',
    );
    // With no other filter the page lists no contacts: it says what to do rather than "not filtered".
    expect(unrecognisedFilterMessage({ name: 'country', value: 'Atlantis' }, false)).toBe(
      'No country “Atlantis” is listed. Choose one from the list to see its contacts.',
    );
  });
});

describe('canonicalSearch', () => {
  const none = { brand: null, country: null, state: null };

  it('puts the page shown in the address: the last page for one past the end, page 1 left out', () => {
    expect(canonicalSearch('?country=Canada&page=99999', { ...none, country: 'Canada' }, 8)).toBe(
      '?country=Canada&page=8',
    );
    expect(canonicalSearch('?country=Canada&page=2', { ...none, country: 'Canada' }, 1)).toBe('?country=Canada');
    expect(canonicalSearch('?page=4', none, 1)).toBe('');
  });

  it('spells the filters as the lists do, keeps an unrecognised one as given and other parameters as they are', () => {
    expect(
      canonicalSearch(
        '?utm_source=mail&country=canada&state=ontario',
        { ...none, country: 'Canada', state: 'Ontario' },
        1,
      ),
    ).toBe('?utm_source=mail&country=Canada&state=Ontario');
    expect(canonicalSearch('?country=Atlantis&page=3', none, 1)).toBe('?country=Atlantis');
  });

  it('is null when the address already says what the page shows, however it is encoded', () => {
    expect(canonicalSearch('?country=United%20States&page=2', { ...none, country: 'United States' }, 2)).toBeNull();
    expect(canonicalSearch('?country=Atlantis', none, 1)).toBeNull();
    expect(canonicalSearch('', none, 1)).toBeNull();
    expect(canonicalSearch('?page=abc', none, 1)).toBeNull();
  });
});

describe('the nearest search in the address', () => {
  it('reads near and place, and writes them back after the filters', () => {
    const params = parseLocatorSearch('?brand=Arcline&near=30.26715,-97.74306&place=Austin%2C+Texas');
    expect(params.near).toEqual({ latitude: 30.26715, longitude: -97.74306, place: 'Austin, Texas' });
    expect(locatorSearch(params)).toBe('?brand=Arcline&near=30.26715%2C-97.74306&place=Austin%2C+Texas');
    expect(hasAnyFilter({ brand: null, country: null, state: null, near: params.near })).toBe(true);
  });

  it('ignores a point out of range or not a pair of numbers', () => {
    for (const near of ['91,0', '0,180.5', '30', 'a,b', '30,-97,1', '1e3,2'])
      expect(parseLocatorSearch(`?near=${near}`).near).toBeUndefined();
    expect(parseNear('-90,180', null)).toEqual({ latitude: -90, longitude: 180, place: null });
  });
});
