/**
 * The locator's state lives in the URL: ?brand=&country=&state=&page=. Links are shareable, back and
 * forward work, and the server renders the same page from the same URL.
 */
export interface LocatorFilters {
  brand: string | null;
  country: string | null;
  state: string | null;
}

export interface LocatorParams extends LocatorFilters {
  /** 1-based; clamped to the pages that exist once the total is known. */
  page: number;
}

const MAX_PAGE = 1_000_000;

function text(params: URLSearchParams, name: string): string | null {
  const value = params.get(name)?.trim();
  return value ? value : null;
}

export function parseLocatorSearch(search: string): LocatorParams {
  const params = new URLSearchParams(search);
  const rawPage = params.get('page')?.trim() ?? '';
  const page = /^\d{1,7}$/.test(rawPage) ? Math.min(MAX_PAGE, Math.max(1, Number(rawPage))) : 1;
  return { brand: text(params, 'brand'), country: text(params, 'country'), state: text(params, 'state'), page };
}

/** The query string for these params ('' for none), in a fixed order; page 1 is left out. */
export function locatorSearch({ brand, country, state, page }: LocatorParams): string {
  const params = new URLSearchParams();
  if (brand) params.set('brand', brand);
  if (country) params.set('country', country);
  if (state) params.set('state', state);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function hasAnyFilter({ brand, country, state }: LocatorFilters): boolean {
  return Boolean(brand || country || state);
}

/** The candidate equal to value, else one equal ignoring case; null when none is. */
function canonical(value: string | null, candidates: readonly string[]): string | null {
  if (value === null) return null;
  if (candidates.includes(value)) return value;
  const folded = value.toLocaleLowerCase('en-US');
  return candidates.find((candidate) => candidate.toLocaleLowerCase('en-US') === folded) ?? null;
}

export interface LocatorChoices {
  /** The brand picklist values, once loaded. */
  brands?: readonly string[];
  /** Each country with its states, once loaded. */
  countryStates?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The filters a URL asks for, checked against what can be chosen: unknown values are dropped, case is
 * corrected, and a state counts only together with a country that has it. Until the choices have loaded,
 * the values stand as given (a state still needs a country).
 */
export function resolveLocatorFilters(filters: LocatorFilters, choices: LocatorChoices): LocatorFilters {
  const brand = choices.brands ? canonical(filters.brand, choices.brands) : filters.brand;
  if (!choices.countryStates) {
    return { brand, country: filters.country, state: filters.country ? filters.state : null };
  }
  const country = canonical(filters.country, Object.keys(choices.countryStates));
  const state = country ? canonical(filters.state, choices.countryStates[country] ?? []) : null;
  return { brand, country, state };
}
