/**
 * What of the Contact Us records a guest's page or query is made of, so that a Contact Us change evicts only
 * the pages and query data it touches (server/cache/contact-changes.ts). The locator page `/` shows the default
 * contact and the picklists, and the contacts of its filter when it has one (?country=&state=&brand=); a
 * representative's page (/reps/{recordId}) that record; a query of the locator's answers reads what its
 * operation reads. Whatever else (another page, an address not
 * understood, an operation not listed) is made of everything: any change evicts it.
 */
import {
  contactFilterOf,
  contactRecordOf,
  NO_CONTACTS,
  type ContactDependencies,
} from '../../server/cache/contact-changes.ts';
import { hasAnyFilter, parseLocatorSearch } from '../src/locator-params.ts';
import { representativeIdOf } from '../../common/pages.ts';

/** The guests' queries of content delivery: the items, the collections, the media and the pictures. */
const READS_CONTENT = [
  'getManagedContentForSite',
  'getManagedContentForChannel',
  'getManagedContentsForSite',
  'getManagedContentsForChannel',
  'getManagedContentMedia',
  'getSiteImage',
  'getResizedManagedContentMedia',
  'getResizedSiteImage',
];

/** The guests' queries that read no Contact Us record: content, SEO settings, object info, picklists, session. */
const READS_NO_CONTACTS = new Set([
  'getSession',
  'getDependentStatePicklistsValues',
  'getPlaceSuggestions',
  ...READS_CONTENT,
  'getRecordSeoProperties',
  'getObjectInfo',
  'getPicklistValues',
]);

/**
 * The guests' queries that read each table a site change names (migration 017's triggers notify site_changed
 * with the table's name). The object metadata's tables (sobject, sobject_field, record_type) are not listed:
 * object info, picklists and the SEO properties' labels all read them, and every query goes with them.
 */
const SITE_TABLE_READERS: Record<string, ReadonlySet<string>> = {
  // The SEO properties are asked for by the site's community.
  cms_site: new Set([...READS_CONTENT, 'getRecordSeoProperties']),
  cms_channel: new Set(READS_CONTENT),
  managed_content: new Set(READS_CONTENT),
  managed_content_channel: new Set(READS_CONTENT),
  managed_content_media: new Set(READS_CONTENT),
  page_seo_setting: new Set(['getRecordSeoProperties']),
};

/**
 * The guest queries a site change makes stale, by the table it names: those that read it, or null (every
 * one) for a table not listed, or a payload missed.
 */
export function siteStaleQueries(table: string | null): ((hash: string) => boolean) | null {
  const readers = table === null ? undefined : SITE_TABLE_READERS[table];
  if (!readers) return null;
  return (hash) => {
    const operationId = operationIdOf(hash);
    return operationId === undefined || readers.has(operationId);
  };
}

/** The operationId a query's hash (the JSON of its key) starts with; undefined if it names none. */
function operationIdOf(hash: string): string | undefined {
  try {
    const key: unknown = JSON.parse(hash);
    return Array.isArray(key) && typeof key[0] === 'string' ? key[0] : undefined;
  } catch {
    return undefined;
  }
}

/** A kept page's dependencies, from its key: the built app's script, a space, and the page's whole URL. */
export function pageDependencies(key: string): ContactDependencies {
  const space = key.indexOf(' ');
  let url: URL;
  try {
    url = new URL(key.slice(space + 1));
  } catch {
    return 'everything';
  }
  if (space < 0) return 'everything';
  // A representative's page shows that record alone (and the content, whose changes evict every page).
  const recordId = representativeIdOf(url.pathname);
  if (recordId) return { filters: [], defaultContact: false, records: [recordId] };
  if (url.pathname !== '/') return 'everything';
  const params = parseLocatorSearch(url.search);
  if (!hasAnyFilter(params)) return { filters: [], defaultContact: true };
  const { country, state, brand } = params;
  // A nearest search shows the contacts of the brand anywhere, whatever the country and state.
  if (params.near)
    return { filters: [{ country: null, state: null, brands: brand ? [brand] : [] }], defaultContact: true };
  return { filters: [{ country, state, brands: brand ? [brand] : [] }], defaultContact: true };
}

/** A guest query's dependencies, from its hash (the JSON of its key: [operationId, parameters, ...]). */
export function queryDependencies(hash: string): ContactDependencies {
  let key: unknown;
  try {
    key = JSON.parse(hash);
  } catch {
    return 'everything';
  }
  if (!Array.isArray(key) || typeof key[0] !== 'string') return 'everything';
  const [operationId, parameters] = key as [string, unknown];
  if (READS_NO_CONTACTS.has(operationId)) return NO_CONTACTS;
  if (operationId === 'getDefaultContacts') return { filters: [], defaultContact: true };
  if (operationId === 'getContact') return contactRecordOf(methodArguments(parameters));
  // A nearest search's arguments have no country or state: it reads the contacts of its brands anywhere.
  if (operationId === 'getContacts' || operationId === 'getNearestContacts') {
    const filter = contactFilterOf(parameters);
    return filter ? { filters: [filter], defaultContact: false } : 'everything';
  }
  return 'everything';
}

/** A server method's arguments from its query's parameters: the methodParams JSON text, read; else the parameters. */
function methodArguments(parameters: unknown): unknown {
  const methodParams = (parameters as { methodParams?: unknown } | null)?.methodParams;
  if (typeof methodParams !== 'string') return parameters;
  try {
    return JSON.parse(methodParams);
  } catch {
    return undefined;
  }
}
