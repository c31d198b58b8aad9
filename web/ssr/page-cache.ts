/**
 * Guests' pages, rendered once per address and kept, like the locator's answers (the same ResultCache): the
 * HTML with its ETag and policy, gzipped at the first request that accepts it. Whatever the page shows
 * (contacts, picklists, content, SEO settings, object metadata) notifies every server on the database when
 * it changes (migrations 004, 016 and 023): a Contact Us change evicts the pages that show what it touches
 * (query-dependencies.ts), any other change every page; a page being rendered across a change is not kept. Five minutes at most besides, as the locator's answers.
 */
import { GuestQueryData, KEPT_WHEN_COLD } from './guest-data.ts';
import {
  contactStaleKeys,
  ResultCache,
  SERVER_METHOD_RESULT_TTL_MS,
  SITE_CHANGED,
  type ResultCacheOptions,
} from '../../server/cache/result-cache.ts';
import { pageDependencies, queryDependencies, siteStaleQueries } from './query-dependencies.ts';
import { CACHES_ON } from '../../server/cache/switch.ts';

export function pageCache(subscribe: ResultCacheOptions['subscribe'], env: NodeJS.ProcessEnv): ResultCache {
  return new ResultCache({
    enabled: CACHES_ON && env.PAGE_CACHE !== 'off' && env.PAGE_CACHE !== 'cold',
    ttlMs: SERVER_METHOD_RESULT_TTL_MS,
    // A page is some 60 KB of HTML (a sixth of it gzipped): a thousand addresses stay within the bytes.
    maxEntries: 1_000,
    maxBytes: 64 * 1024 * 1024,
    subscribe,
    staleKeys: contactStaleKeys(pageDependencies),
  });
}

const contactStale = contactStaleKeys(queryDependencies);

/**
 * The data of guests' queries, kept between renders (guest-data.ts) under the same notifications: a page not
 * kept yet (another address, say) is rendered from it with no API call but the session's. PAGE_CACHE=cold keeps
 * the reference data and the guest's session alone (KEPT_WHEN_COLD): every render asks for the page's own data,
 * as one does after a change of it.
 */
export function guestQueryData(subscribe: ResultCacheOptions['subscribe'], env: NodeJS.ProcessEnv): GuestQueryData {
  // The queries of a thousand addresses' contacts; the others are one each.
  return new GuestQueryData({
    enabled: CACHES_ON,
    ...(env.PAGE_CACHE === 'cold' ? { only: KEPT_WHEN_COLD } : {}),
    subscribe,
    // A site change evicts the queries that read the table it names; a Contact Us change those it touches.
    staleKeys: (change) => (change.channel === SITE_CHANGED ? siteStaleQueries(change.payload) : contactStale(change)),
    maxEntries: 1_000,
  });
}
