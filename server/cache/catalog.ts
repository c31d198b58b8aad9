/**
 * Every data cache of the server, one row each: what it keeps, its key, its bound, what evicts it, and the test
 * that shows the eviction. docs/architecture.md shows the same table, and tests/unit/cache-catalog.test.ts holds
 * the two together (and to the files and tests named). A new cache gets its row here, or it does not go in.
 *
 * Each is turned off by CACHES=off (switch.ts): directly, or because what it is kept by never lets it keep
 * anything then (no metadata generation, no mark of record changes).
 */

/** The notification channels that keep caches current (the migrations' triggers notify them at commit). */
type ChangeChannel =
  'contact_us_changed' | 'site_changed' | 'org_metadata_changed' | 'user_session_changed' | 'record_data_changed';

interface CacheRow {
  /** Its name in prose and in docs/architecture.md. */
  name: string;
  /** The file that keeps it. */
  file: string;
  keeps: string;
  key: string;
  bound: string;
  /** The channels whose notifications make its entries stale, if any. */
  channels: readonly ChangeChannel[];
  /** Everything else that evicts it, or why nothing needs to (its key names its content). */
  evictedBy: string;
  /** The test file that shows an entry evicted (or a change seen at once). */
  test: string;
}

export const CACHE_CATALOG: readonly CacheRow[] = [
  {
    name: 'locator answers',
    file: 'server/cache/result-cache.ts',
    keeps:
      "the serialized answers of the locator's server methods (getDefaultContacts, getDependentStatePicklistsValues, getContacts, getContact, invokeApexCacheable), with their ETag and gzip",
    key: 'the call (class, method, arguments as sorted JSON); and the request target, for the replay before routing',
    bound: '2,000 entries and 32 MiB, least recently used out; 8,000 targets',
    channels: ['contact_us_changed'],
    evictedBy:
      'a Contact Us change: only the answers it touches (getContacts of a filter matching a changed row before or after, getDefaultContacts when a default contact changed, getContact of a changed record; server/cache/contact-changes.ts), every answer when it says `*`; a picklist change: every answer; 5 minutes after it was computed; an answer computed across a change is not kept',
    test: 'tests/contract/locator-cache.test.ts',
  },
  {
    name: "guests' pages",
    file: 'web/ssr/page-cache.ts',
    keeps: "a guest's rendered page (HTML or redirect) with its ETag and policy, gzip and Brotli",
    key: 'the built app and the whole URL',
    bound: '1,000 pages and 64 MiB, least recently used out',
    channels: ['contact_us_changed', 'site_changed'],
    evictedBy:
      'a Contact Us change: only the pages that show what it touches (web/ssr/query-dependencies.ts: `/` the default contact, a locator page also its filter, a representative’s page its record), every page when it says `*`; any other change: every page; 5 minutes after it was rendered; a page rendered across a change, or with a default for a failed call, is not kept',
    test: 'tests/contract/page-cache.test.ts',
  },
  {
    name: "guests' query data",
    file: 'web/ssr/guest-data.ts',
    keeps: "the data of guests' queries, for rendering a page not kept yet",
    key: 'the query hash',
    bound: '1,000 queries, oldest out',
    channels: ['contact_us_changed', 'site_changed'],
    evictedBy:
      "a Contact Us change: only the queries that read what it touches (web/ssr/query-dependencies.ts), every query when it says `*`; a site change: the queries that read the table it names (siteStaleQueries), every query for object metadata or a table not listed; the query's x-cache-ttl; data fetched across a change is not kept",
    test: 'tests/contract/page-cache.test.ts, tests/unit/site-changes.test.ts',
  },
  {
    name: 'metadata answers',
    file: 'server/http/answers/answer-cache.ts',
    keeps: "a signed-in user's getObjectInfo and getLayout representations, answered again before routing",
    key: 'the request target and the caller’s profile',
    bound: '2,000 targets and 32 MiB of JSON, shared with record answers, first cached out',
    channels: ['org_metadata_changed'],
    evictedBy: 'checked at use: the metadata generation it was made at must still hold',
    test: 'tests/contract/answer-cache.test.ts',
  },
  {
    name: 'record answers',
    file: 'server/http/answers/answer-cache.ts',
    keeps: "a signed-in user's getRecord and getRecordUi representations, answered again before routing",
    key: 'the request target and the caller’s user id',
    bound: 'shared with metadata answers',
    channels: ['record_data_changed', 'org_metadata_changed'],
    evictedBy: "checked at use: none of the records read (nor the user's layout states) may have changed since",
    test: 'tests/contract/answer-cache-records.test.ts',
  },
  {
    name: 'sessions',
    file: 'server/cache/session-cache.ts',
    keeps: 'a signed-in session and its principal',
    key: "the session id's SHA-256",
    bound: '10,000 sessions, oldest out',
    channels: ['user_session_changed'],
    evictedBy: 'sign-out and sign-in drop it at once; a read across a change is not kept',
    test: 'tests/contract/metadata-memory.test.ts',
  },
  {
    name: 'org metadata',
    file: 'server/cache/per-database.ts',
    keeps:
      "the org describe, layouts by object, picklist rules and labels, pg_trgm's schema, the record table's index definitions (oncePerDatabase)",
    key: 'the database handle',
    bound: 'one value each',
    channels: ['org_metadata_changed'],
    evictedBy: 'read again at the next call after a change; a failed read is not kept',
    test: 'tests/unit/per-database.test.ts',
  },
  {
    name: 'object infos by profile',
    file: 'server/platform/object-info/object-info.ts',
    keeps: 'an ObjectInfoRepresentation made for a profile',
    key: 'the described object (of the org metadata) and the profile',
    bound: 'one per object and profile',
    channels: ['org_metadata_changed'],
    evictedBy: 'goes with the described object when the org metadata is read again',
    test: 'tests/contract/metadata-memory.test.ts',
  },
  {
    name: 'layouts by object',
    file: 'server/platform/layouts/layouts.ts',
    keeps: 'answered layouts with their eTag, and the field paths of layouts',
    key: 'the described object, then profile, layout type, record type and mode',
    bound: 'one per combination',
    channels: ['org_metadata_changed'],
    evictedBy: 'goes with the described object, or when its layout definition is read again',
    test: 'tests/contract/metadata-memory.test.ts',
  },
  {
    name: 'recent record UIs',
    file: 'server/platform/record-ui/record-ui.ts',
    keeps: 'whole record UI representations, with their JSON',
    key: 'an eTag over the eTags of its records, layouts, object infos and layout states',
    bound: '128, least recently used out',
    channels: [],
    evictedBy: 'nothing needs to: a change of any part makes another key',
    test: 'tests/contract/record-ui.test.ts',
  },
  {
    name: 'last written rows',
    file: 'server/platform/records/write-turns.ts',
    keeps: "the row this process's last update of a record left, to check the next update against",
    key: 'the record id',
    bound: '1,000 records, oldest written out',
    channels: ['record_data_changed'],
    evictedBy: 'checked at use: no change of the record may have been heard since it was written',
    test: 'tests/unit/write-turns.test.ts',
  },
  {
    name: 'image variants',
    file: 'server/content/media.ts',
    keeps: 'resized and re-encoded pictures (AVIF, WebP, JPEG)',
    key: "the variant's ETag: the original's checksum, the size, crop and format",
    bound: '64 MiB, least recently used out',
    channels: [],
    evictedBy: "nothing needs to: a new picture has a new checksum (the original's row is read at every request)",
    test: 'tests/contract/media.test.ts',
  },
];
