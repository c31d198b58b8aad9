/**
 * The data of guests' queries, kept between renders. What a guest's page asks the API for (the content, the
 * SEO properties, object info, picklists, the locator's answers) is the same for every guest, so a render takes
 * it from here instead of calling the API, parsing its answer and building its query again: each query starts
 * with the data kept for its key, at the time it was fetched, and TanStack Query fetches only what the
 * contract's cache lifetime (its staleTime) says is stale. Kept are the answers of operations the contract
 * lets a guest call and lets answers be kept (x-cache-ttl above 0), and the guest's session (getSession): it is
 * every guest's but for its serverTime, which the page reads only for a signed-in session's timers, and which a
 * kept page holds from its render too. Asking for it took a sixth of an uncached render.
 *
 * Kept like the pages (page-cache.ts): a change of what they are made of, in any server process, evicts the
 * queries it touches (query-dependencies.ts), and data is used only while the subscription hears every change;
 * data fetched across a change is not kept.
 */
import { QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { operationTable } from '../../generated/operations.ts';
import type { Listening } from '../../server/db/connection.ts';
import type { ResultCacheOptions } from '../../server/cache/result-cache.ts';
import { queryDefaults } from '../src/query-client.ts';

/**
 * The queries of a server render: no retry (a failed call shows its default), and no structural sharing,
 * which would compare each answer with one that a render's fresh client never holds. Frozen: see
 * queryDefaults (web/src/query-client.ts).
 */
export const SERVER_QUERY_DEFAULTS = { queries: queryDefaults({ retry: false, structuralSharing: false }) } as const;

interface Kept {
  data: unknown;
  updatedAt: number;
}

/**
 * What a render keeps with PAGE_CACHE=cold: what no change of a page's own data (its contacts, content or SEO
 * settings) evicts. That is the reference data (the object's metadata and picklists, the country-to-states map),
 * which changes only with the org's metadata and costs the most to fetch and read again (the map is some 100 KB),
 * and the guest's session, which is every guest's (query-dependencies.ts: no change reads it).
 */
export const KEPT_WHEN_COLD: ReadonlySet<string> = new Set([
  'getObjectInfo',
  'getPicklistValues',
  'getDependentStatePicklistsValues',
  'getSession',
]);

/** Whether a query's answers may be kept for guests: its key starts with the operationId (client/queries.ts). */
function keepable(queryKey: QueryKey): boolean {
  if (queryKey[0] === 'getSession') return true;
  const operation = operationTable[queryKey[0] as keyof typeof operationTable] as
    { guest: boolean; cacheTtl: number | null } | undefined;
  return operation !== undefined && operation.guest && (operation.cacheTtl ?? 0) > 0;
}

export class GuestQueryData {
  readonly enabled: boolean;
  readonly #subscribe: ResultCacheOptions['subscribe'];
  readonly #staleKeys: ResultCacheOptions['staleKeys'];
  readonly #maxEntries: number;
  readonly #only: ReadonlySet<string> | undefined;
  readonly #entries = new Map<string, Kept>();
  /** Bumped by every change: data fetched across one is not kept. */
  #generation = 0;
  #listening: Listening | null = null;
  #subscribing: Promise<void> | null = null;
  #retryAt = 0;

  constructor({
    enabled,
    subscribe,
    staleKeys,
    maxEntries,
    only,
  }: {
    enabled: boolean;
    subscribe: ResultCacheOptions['subscribe'];
    /** Which query hashes a change makes stale (null: every one), as ResultCacheOptions.staleKeys. */
    staleKeys?: ResultCacheOptions['staleKeys'];
    maxEntries: number;
    /** The operations whose queries are kept (KEPT_WHEN_COLD, say); every keepable one when not given. */
    only?: ReadonlySet<string>;
  }) {
    this.enabled = enabled;
    this.#subscribe = subscribe;
    this.#staleKeys = staleKeys;
    this.#maxEntries = maxEntries;
    this.#only = only;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * A QueryClient for one guest's render: its queries start from the data kept, and what it fetches is kept
   * for the next renders once done() is called (when the render is over).
   */
  async client(): Promise<{ queryClient: QueryClient; done(): void }> {
    const defaultOptions = SERVER_QUERY_DEFAULTS;
    if (!this.enabled) return { queryClient: new QueryClient({ defaultOptions }), done: () => {} };
    // Subscribed lazily: building the app must not touch the database.
    if (!this.#listening) await this.#subscribeOnce();
    if (this.#listening?.live !== true) return { queryClient: new QueryClient({ defaultOptions }), done: () => {} };
    const generation = this.#generation;
    const entries = this.#entries;
    const queryCache = new QueryCache();
    const build = queryCache.build.bind(queryCache) as (
      ...args: Parameters<QueryCache['build']>
    ) => ReturnType<QueryCache['build']>;
    queryCache.build = ((...args: Parameters<QueryCache['build']>) => {
      const query = build(...args);
      // A query just made (no state given, never updated) starts from the data kept for its key.
      const fresh = args[2] === undefined && query.state.dataUpdateCount === 0 && query.state.errorUpdateCount === 0;
      const kept = fresh ? entries.get(query.queryHash) : undefined;
      if (kept) query.setData(kept.data, { updatedAt: kept.updatedAt, manual: true });
      return query;
    }) as QueryCache['build'];
    const fetched = new Map<string, Kept>();
    queryCache.subscribe((event) => {
      if (
        event.type !== 'updated' ||
        event.action.type !== 'success' ||
        event.action.manual ||
        !keepable(event.query.queryKey) ||
        (this.#only && !this.#only.has(event.query.queryKey[0] as string))
      )
        return;
      fetched.set(event.query.queryHash, {
        data: event.action.data,
        updatedAt: event.action.dataUpdatedAt ?? Date.now(),
      });
    });
    return {
      queryClient: new QueryClient({ queryCache, defaultOptions }),
      done: () => {
        if (generation !== this.#generation || this.#listening?.live !== true) return;
        for (const [hash, kept] of fetched) {
          this.#entries.delete(hash);
          this.#entries.set(hash, kept);
        }
        // The locator's queries are one per filter: the oldest go first.
        for (const hash of this.#entries.keys()) {
          if (this.#entries.size <= this.#maxEntries) break;
          this.#entries.delete(hash);
        }
      },
    };
  }

  /** Forgets every query's data. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /** Forgets the data of the queries whose hash stale() names; data being fetched is not kept either. */
  evict(stale: (hash: string) => boolean): void {
    this.#generation++;
    for (const hash of this.#entries.keys()) if (stale(hash)) this.#entries.delete(hash);
  }

  #subscribeOnce(): Promise<void> {
    if (Date.now() < this.#retryAt) return Promise.resolve();
    this.#subscribing ??= this.#subscribe((change) => {
      const stale = this.#staleKeys?.(change) ?? null;
      if (stale) this.evict(stale);
      else this.invalidate();
    })
      .then(
        (listening) => {
          this.#listening = listening;
        },
        (error: unknown) => {
          // Without notifications nothing may be kept; renders fetch everything until a later one subscribes.
          this.#retryAt = Date.now() + 5_000;
          console.error('The page data could not subscribe to changes; rendering without kept data:', error);
        },
      )
      .finally(() => {
        this.#subscribing = null;
      });
    return this.#subscribing;
  }
}
