/**
 * The locator's state lives in the URL: ?brand=&country=&state=&page=, and for the nearest search
 * &near=<latitude>,<longitude>&place=<label>. Links are shareable, back and forward work, and the server
 * renders the same page from the same URL.
 */
export interface LocatorFilters {
  brand: string | null;
  country: string | null;
  state: string | null;
  /** The point of the nearest search: the contacts are then those nearest to it (with the brand), whatever the country and state. */
  near?: NearPoint | null;
}

export interface NearPoint {
  latitude: number;
  longitude: number;
  /** What the visitor chose, as the page names it ("Austin, Texas, United States", "your location"). */
  place: string | null;
}

/** ?near=<latitude>,<longitude>, in degrees, within range; null otherwise. */
export function parseNear(near: string | null | undefined, place: string | null): NearPoint | null {
  const match = /^\s*(-?\d{1,2}(?:\.\d{1,8})?)\s*,\s*(-?\d{1,3}(?:\.\d{1,8})?)\s*$/.exec(near ?? '');
  if (!match) return null;
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { latitude, longitude, place };
}

/** The near parameter of a point: five decimals (about a metre). */
export const nearParam = ({ latitude, longitude }: { latitude: number; longitude: number }) =>
  `${Number(latitude.toFixed(5))},${Number(longitude.toFixed(5))}`;

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
  const near = parseNear(params.get('near'), text(params, 'place'));
  // near is left out when the address has none, as the filters were before the nearest search.
  return {
    brand: text(params, 'brand'),
    country: text(params, 'country'),
    state: text(params, 'state'),
    ...(near ? { near } : {}),
    page,
  };
}

/** The query string for these params ('' for none), in a fixed order; page 1 is left out. */
export function locatorSearch({ brand, country, state, near, page }: LocatorParams): string {
  const params = new URLSearchParams();
  if (brand) params.set('brand', brand);
  if (country) params.set('country', country);
  if (state) params.set('state', state);
  if (near) params.set('near', nearParam(near));
  if (near?.place) params.set('place', near.place);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function hasAnyFilter({ brand, country, state, near }: LocatorFilters): boolean {
  return Boolean(brand || country || state || near);
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
  const near = filters.near ? { near: filters.near } : {};
  if (!choices.countryStates) {
    return { brand, country: filters.country, state: filters.country ? filters.state : null, ...near };
  }
  const country = canonical(filters.country, Object.keys(choices.countryStates));
  const state = country ? canonical(filters.state, choices.countryStates[country] ?? []) : null;
  return { brand, country, state, ...near };
}

export type FilterName = 'brand' | 'country' | 'state';

/** A filter of the address that names nothing the visitor could choose. */
export interface UnrecognisedFilter {
  name: FilterName;
  /** As the address gives it. */
  value: string;
  /** For a state: the country it was looked for in (null when the address names no known country). */
  country?: string | null;
}

/**
 * The filters the address asks for that resolveLocatorFilters dropped: said only once the choices they
 * are checked against have loaded (on the server, with the page's data; in the browser, the same).
 */
export function unrecognisedFilters(
  asked: LocatorFilters,
  resolved: LocatorFilters,
  choices: LocatorChoices,
): UnrecognisedFilter[] {
  const unrecognised: UnrecognisedFilter[] = [];
  if (choices.brands && asked.brand && !resolved.brand) unrecognised.push({ name: 'brand', value: asked.brand });
  if (choices.countryStates) {
    if (asked.country && !resolved.country) unrecognised.push({ name: 'country', value: asked.country });
    if (asked.state && !resolved.state)
      unrecognised.push({ name: 'state', value: asked.state, country: resolved.country });
  }
  return unrecognised;
}

/**
 * What the page says of an unrecognised filter: that the contacts are not filtered by it when other filters
 * apply, and what to do when none does (the page then lists no contacts).
 */
export function unrecognisedFilterMessage({ name, value, country }: UnrecognisedFilter, filtered = true): string {
  const what = { brand: 'brand', country: 'country', state: 'state or province' }[name];
  const where = name === 'state' ? (country ? ` for ${country}` : ' without a country') : '';
  return filtered
    ? `No ${what} “${value}” is listed${where}, so the contacts are not filtered by ${what}.`
    : `No ${what} “${value}” is listed${where}. Choose one from the list to see its contacts.`;
}

/**
 * The query string for what the page shows, when it differs from the address's: the filters as the lists
 * spell them (an unrecognised one as given, since the page says so), and the page shown (the last one for
 * a page past the end, page 1 left out). Other parameters (campaign tags, say) are kept as they are. Null
 * when the address already says what the page shows.
 */
export function canonicalSearch(search: string, resolved: LocatorFilters, shownPage: number): string | null {
  const asked = parseLocatorSearch(search);
  const shown: LocatorParams = {
    brand: resolved.brand ?? asked.brand,
    country: resolved.country ?? asked.country,
    state: resolved.state ?? asked.state,
    page: shownPage,
  };
  if (
    shown.brand === asked.brand &&
    shown.country === asked.country &&
    shown.state === asked.state &&
    shown.page === asked.page
  )
    return null;
  const params = new URLSearchParams(search);
  for (const name of ['brand', 'country', 'state'] as const) {
    const value = shown[name];
    if (value) params.set(name, value);
    else params.delete(name);
  }
  if (shown.page > 1) params.set('page', String(shown.page));
  else params.delete('page');
  const query = params.toString();
  return query ? `?${query}` : '';
}
