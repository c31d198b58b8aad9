import { describe, expect, it } from 'vitest';
import { buildSearchIndex, filterOptions, fold, lazily, typeaheadMatch } from './matching';

const countries = [
  'Algeria',
  'Canada',
  'Central African Republic',
  "Côte d'Ivoire",
  'Germany',
  'Niger',
  'Nigeria',
  'São Tomé and Príncipe',
  'United States',
].map((label) => ({ value: label, label }));
const index = buildSearchIndex(countries);
const labels = (options: { label: string }[]) => options.map((option) => option.label);

describe('fold', () => {
  it('lower-cases and removes diacritics', () => {
    expect(fold('Côte d’Ivoire')).toBe('cote d’ivoire');
    expect(fold('SÃO TOMÉ')).toBe('sao tome');
  });
});

describe('filterOptions', () => {
  it('answers every option for an empty query', () => {
    expect(filterOptions(index, '')).toHaveLength(countries.length);
    expect(filterOptions(index, '   ')).toHaveLength(countries.length);
  });

  it('ranks labels that start with the query, then word starts, then the rest', () => {
    expect(labels(filterOptions(index, 'ger'))).toEqual(['Germany', 'Algeria', 'Niger', 'Nigeria']);
    expect(labels(filterOptions(index, 'af'))).toEqual(['Central African Republic']);
    expect(labels(filterOptions(index, 'ni'))).toEqual(['Niger', 'Nigeria', 'United States']);
  });

  it('ignores case and diacritics', () => {
    expect(labels(filterOptions(index, 'COTE'))).toEqual(["Côte d'Ivoire"]);
    expect(labels(filterOptions(index, 'sao tome'))).toEqual(['São Tomé and Príncipe']);
  });

  it('answers nothing when nothing matches', () => {
    expect(filterOptions(index, 'xyz')).toEqual([]);
  });

  it('stays fast on a long list', () => {
    const many = buildSearchIndex(
      Array.from({ length: 5000 }, (_, i) => ({ value: String(i), label: `State number ${i}` })),
    );
    const started = performance.now();
    for (let i = 0; i < 100; i++) filterOptions(many, `${i}`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('typeaheadMatch', () => {
  const folded = countries.map((country) => fold(country.label));

  it('finds the first label starting with the typed characters', () => {
    expect(typeaheadMatch(folded, 'n', -1)).toBe(5);
    expect(typeaheadMatch(folded, 'nige', -1)).toBe(5);
    expect(typeaheadMatch(folded, 'nigeri', -1)).toBe(6);
    expect(typeaheadMatch(folded, 'ce', -1)).toBe(2);
  });

  it('cycles through the labels starting with a repeated letter', () => {
    expect(typeaheadMatch(folded, 'c', 1)).toBe(2);
    expect(typeaheadMatch(folded, 'cc', 2)).toBe(3);
    expect(typeaheadMatch(folded, 'c', 3)).toBe(1);
  });

  it('keeps the active option while it still matches a longer buffer', () => {
    expect(typeaheadMatch(folded, 'ca', 1)).toBe(1);
  });

  it('answers -1 when nothing matches', () => {
    expect(typeaheadMatch(folded, 'q', 0)).toBe(-1);
    expect(typeaheadMatch([], 'a', -1)).toBe(-1);
    expect(typeaheadMatch(folded, '', 0)).toBe(-1);
  });
});

describe('lazily', () => {
  it('makes the value at the first call only, and gives the same one after', () => {
    let made = 0;
    const value = lazily(() => ({ made: ++made }));
    expect(made).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(made).toBe(1);
  });
});
