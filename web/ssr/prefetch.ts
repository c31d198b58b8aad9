/**
 * The queries the page runs on its first render, run on the server before rendering so that the first
 * HTML holds their data (and the browser hydrates with the same): the default contact, the locator's
 * data, the page's content (texts, then the picture the banner names), and the SEO properties the head is
 * made of. A query that fails is left failed: the page renders its defaults for it.
 */
import { InfiniteQueryObserver, type QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../client/index.ts';
import type { CountryStatesMap } from '../../client/index.ts';
import { countryStatesQuery as countryStatesQueryOf, type ContactsChunks } from '../../client/queries.ts';
import { getDefaultContactsQuery } from '../../client/react.ts';
import { CONTACTS_PER_PAGE } from '../src/constants.ts';
import { memoByObject } from '../src/lib/memo.ts';
import { pageContentQuery } from '../src/content.ts';
import { brandPicklistQuery, brandRecordTypeId, contactsQuery, contactUsObjectInfoQuery } from '../src/locator-data.ts';
import {
  canonicalSearch,
  hasAnyFilter,
  parseLocatorSearch,
  resolveLocatorFilters,
  type LocatorFilters,
} from '../src/locator-params.ts';
import { pageCountFor } from '../src/pager.ts';
import { pageSeoQuery } from './seo-head.ts';

/**
 * Returns the query string of the address that says what the page shows, when the request's does not (a
 * page past the end, a filter spelled otherwise than the lists spell it): null when it does, or when that
 * cannot be told (a list or the contacts failed to load).
 */
export async function prefetchPage(queryClient: QueryClient, api: ApiClient, url: URL): Promise<string | null> {
  const params = parseLocatorSearch(url.search);
  const countryStatesQuery = countryStatesQueryOf(api);
  const [, , brands] = await Promise.all([
    queryClient.prefetchQuery(getDefaultContactsQuery(api)),
    queryClient.prefetchQuery(countryStatesQuery),
    prefetchBrands(queryClient, api),
    prefetchContent(queryClient, api),
    queryClient.prefetchQuery(pageSeoQuery(api)),
  ]);
  const countryStates = queryClient.getQueryData(countryStatesQuery.queryKey);
  const filters = resolveLocatorFilters(params, { brands, countryStates });
  let shownPage = 1;
  if (hasAnyFilter(filters)) {
    await prefetchContacts(queryClient, api, filters, params.page);
    const total = queryClient
      .getQueryData<ContactsChunks>(contactsQuery(api, filters).queryKey)
      ?.pages.at(-1)?.totalRecords;
    if (total === undefined) return null;
    shownPage = Math.min(params.page, Math.max(1, pageCountFor(total, CONTACTS_PER_PAGE)));
  }
  if (!brands || !countryStates) return null;
  queryClient.setQueryData(countryStatesQuery.queryKey, firstViewStates(countryStates, filters.country), {
    updatedAt: 0,
  });
  return canonicalSearch(url.search, filters, shownPage);
}

/**
 * What the first view needs of the country-to-states map: every country, and the states of the chosen one
 * only (the whole map is some 110 KB). It is marked as loaded long ago, so that the browser, once the page is
 * hydrated, fetches the whole map at once (the cacheable GET: the browser's HTTP cache and the ETag serve it
 * on later visits), and renders meanwhile exactly what the server did.
 */
function firstViewStates(countryStates: CountryStatesMap, country: string | null): CountryStatesMap {
  // The map is the same object for as long as it is kept for guests: each country's view is made once.
  const views = firstViewsOf(countryStates);
  const key = country !== null && Object.hasOwn(countryStates, country) ? country : null;
  let view = views.get(key);
  if (!view) {
    view = Object.fromEntries(
      Object.entries(countryStates).map(([name, states]) => [name, name === key ? states : []]),
    );
    views.set(key, view);
  }
  return view;
}
const firstViewsOf = memoByObject((_map: CountryStatesMap) => new Map<string | null, CountryStatesMap>());

/**
 * The page's content: the banner, heading and support-lines texts, with the image item the banner names among
 * their references (the sign-in page's banner shows it too), made into what the page shows (the pageContent
 * query).
 */
export async function prefetchContent(queryClient: QueryClient, api: ApiClient): Promise<void> {
  await queryClient.prefetchQuery(pageContentQuery(api));
}

/** The brand picklist, which needs the object's default record type first; its values once loaded. */
async function prefetchBrands(queryClient: QueryClient, api: ApiClient): Promise<string[] | undefined> {
  const objectInfoQuery = contactUsObjectInfoQuery(api);
  await queryClient.prefetchQuery(objectInfoQuery);
  const recordTypeId = brandRecordTypeId(queryClient.getQueryData(objectInfoQuery.queryKey));
  if (recordTypeId === undefined) return undefined;
  const picklistQuery = brandPicklistQuery(api, recordTypeId);
  await queryClient.prefetchQuery(picklistQuery);
  return queryClient.getQueryData(picklistQuery.queryKey)?.values.map((entry) => entry.value);
}

/**
 * The contacts up to the page after the requested one, chunk after chunk (each getContacts call answers
 * the contacts after the last Id so far). The page carries only the contacts it shows and the next
 * page's, not the rest of the last chunk: the browser asks for more, after the last Id it has, when the
 * visitor pages on.
 */
async function prefetchContacts(queryClient: QueryClient, api: ApiClient, filters: LocatorFilters, page: number) {
  const options = contactsQuery(api, filters);
  await queryClient.prefetchInfiniteQuery(options);
  const observer = new InfiniteQueryObserver(queryClient, options);
  const loadedCount = (data: ContactsChunks) => data.pages.reduce((count, chunk) => count + chunk.contacts.length, 0);
  let keep = 0;
  for (;;) {
    const data = queryClient.getQueryData<ContactsChunks>(options.queryKey);
    if (!data) return;
    const total = data.pages.at(-1)?.totalRecords ?? 0;
    const shown = Math.min(page, Math.max(1, pageCountFor(total, CONTACTS_PER_PAGE)));
    keep = (shown + 1) * CONTACTS_PER_PAGE;
    if (loadedCount(data) >= keep || !observer.getCurrentResult().hasNextPage) break;
    const next = await observer.fetchNextPage();
    if (next.isFetchNextPageError) return;
  }
  const data = queryClient.getQueryData<ContactsChunks>(options.queryKey)!;
  const last = data.pages.at(-1)!;
  const cut = Math.min(loadedCount(data) - keep, last.contacts.length - 1);
  if (cut <= 0) return;
  queryClient.setQueryData<ContactsChunks>(options.queryKey, {
    ...data,
    pages: [...data.pages.slice(0, -1), { ...last, contacts: last.contacts.slice(0, last.contacts.length - cut) }],
  });
}
