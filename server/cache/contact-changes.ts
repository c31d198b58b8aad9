/**
 * What a Contact Us change touches, read from the payload of its notification (migrations 023 and 024): the
 * representatives' sides before and after, each with its country, state, brands and whether it is the default
 * contact, and each changed row's id. A payload not understood (`*`, a TRUNCATE's or a picklist change's operation name, or none: a
 * notification that may have been missed) touches everything.
 */

/** One side of a changed representative: where the locator finds it. */
interface ContactSide {
  country: string | null;
  state: string | null;
  brands: readonly string[];
  isDefault: boolean;
}

type ContactChange =
  | { everything: true }
  | {
      everything: false;
      sides: readonly ContactSide[];
      /** The changed records by the 15 characters that make an id (recordKey); null when a row did not say. */
      records: ReadonlySet<string> | null;
    };

/**
 * A record's key among the changed ones: its id's first 15 characters, which make it (the 3 after only make it
 * safe without regard to case), so that a page asked with a 15-character id finds its change.
 */
const recordKey = (id: string): string => id.slice(0, 15);

const EVERYTHING: ContactChange = { everything: true };

/** A locator filter, as getContacts takes it: null and [] filter nothing. */
export interface ContactFilter {
  country: string | null;
  state: string | null;
  brands: readonly string[];
}

const isText = (value: unknown): value is string | null => value === null || typeof value === 'string';

function side(value: unknown): ContactSide | null | undefined {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const [country, state, brands, isDefault] = value as unknown[];
  if (!isText(country) || !isText(state) || typeof isDefault !== 'boolean') return undefined;
  if (brands !== null && !(Array.isArray(brands) && brands.every((brand) => typeof brand === 'string')))
    return undefined;
  return { country, state, brands: (brands as string[] | null) ?? [], isDefault };
}

/** The payload of a contact_us_changed notification, read. */
export function parseContactChange(payload: string | null | undefined): ContactChange {
  if (!payload || payload[0] !== '[') return EVERYTHING;
  let rows: unknown;
  try {
    rows = JSON.parse(payload);
  } catch {
    return EVERYTHING;
  }
  if (!Array.isArray(rows)) return EVERYTHING;
  const sides: ContactSide[] = [];
  let records: Set<string> | null = new Set();
  for (const row of rows) {
    // [before, after, id] (migration 024), or [before, after] (023): which record, not said.
    if (!Array.isArray(row) || (row.length !== 2 && row.length !== 3)) return EVERYTHING;
    const [before, after, id] = row as unknown[];
    for (const one of [before, after]) {
      const read = side(one);
      if (read === undefined) return EVERYTHING;
      if (read) sides.push(read);
    }
    if (typeof id === 'string') records?.add(recordKey(id));
    else if (id === undefined) records = null;
    else return EVERYTHING;
  }
  return { everything: false, sides, records };
}

/** Compared ignoring case, as a page's address names a filter (web/src/locator-params.ts): never too few out. */
const fold = (value: string | null) => value?.toLocaleLowerCase('en-US') ?? null;

/** Whether the change may change getContacts' answers (any page of them) for filter. */
export function touchesFilter(change: ContactChange, filter: ContactFilter): boolean {
  if (change.everything) return true;
  const country = fold(filter.country);
  const state = fold(filter.state);
  const brands = filter.brands.map(fold);
  return change.sides.some(
    (one) =>
      (country === null || fold(one.country) === country) &&
      (state === null || fold(one.state) === state) &&
      // Matching any of the filter's brands is a superset of what the locator matches: never too few out.
      (brands.length === 0 || one.brands.some((brand) => brands.includes(fold(brand)))),
  );
}

/** Whether the change may change the record of id (getContact's answer, the representative's page). */
export function touchesRecord(change: ContactChange, id: string): boolean {
  return change.everything || change.records === null || change.records.has(recordKey(id));
}

/** Whether the change may change the default contacts (getDefaultContacts). */
export function touchesDefaultContact(change: ContactChange): boolean {
  return change.everything || change.sides.some((one) => one.isDefault);
}

/**
 * What a kept answer, page or query is made of, of the Contact Us records: the contacts of some filters, the
 * default contacts, some records by id, or everything (what is not understood). Picklists change only with a
 * change that says everything.
 */
export type ContactDependencies =
  'everything' | { filters: readonly ContactFilter[]; defaultContact: boolean; records?: readonly string[] };

/** Nothing of the Contact Us records (the content, the SEO settings, object info, the picklists). */
export const NO_CONTACTS: ContactDependencies = { filters: [], defaultContact: false };

/** Whether change may make stale what has these dependencies. */
export function isStale(dependencies: ContactDependencies, change: ContactChange): boolean {
  if (change.everything || dependencies === 'everything') return true;
  return (
    (dependencies.defaultContact && touchesDefaultContact(change)) ||
    dependencies.filters.some((filter) => touchesFilter(change, filter)) ||
    (dependencies.records ?? []).some((id) => touchesRecord(change, id))
  );
}

/** A getContacts filter from its arguments (country, state, brands), or undefined when they are not of that shape. */
export function contactFilterOf(args: unknown): ContactFilter | undefined {
  if (!args || typeof args !== 'object') return undefined;
  const { country = null, state = null, brands = null } = args as Record<string, unknown>;
  if (!isText(country) || !isText(state)) return undefined;
  if (brands !== null && !(Array.isArray(brands) && brands.every((brand) => typeof brand === 'string')))
    return undefined;
  return { country, state, brands: (brands as string[] | null) ?? [] };
}

/** What getContact's answer for its arguments ({recordId}) is made of: that record, or everything when not of that shape. */
export function contactRecordOf(args: unknown): ContactDependencies {
  if (!args || typeof args !== 'object') return 'everything';
  const { recordId } = args as Record<string, unknown>;
  return typeof recordId === 'string' ? { filters: [], defaultContact: false, records: [recordId] } : 'everything';
}
