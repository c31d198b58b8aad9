import { describe, expect, it } from 'vitest';
import { hasAnyFilter, locatorSearch, parseLocatorSearch, resolveLocatorFilters } from './locator-params';

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
    expect(parseLocatorSearch('?brand=&country=%20&page=')).toEqual({ brand: null, country: null, state: null, page: 1 });
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
    expect(locatorSearch({ brand: null, country: 'United States', state: null, page: 1 })).toBe('?country=United+States');
    expect(locatorSearch({ state: 'Ontario', country: 'Canada', brand: 'Arcline', page: 2 })).toBe('?brand=Arcline&country=Canada&state=Ontario&page=2');
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
