/**
 * The server-method result cache: answers are kept 5 minutes (300,000 ms), as the platform keeps them. An
 * answer is kept serialized, with its ETag computed once, so that a hit costs a map lookup. Any change to
 * what the answers are made of empties it at once: the database notifies every server on commit
 * (migration 004), and an answer being computed when a change arrives is not kept. Bounded in entries and
 * bytes, least recently used out first.
 */
import { hash } from 'node:crypto';
import type { Database, Listening } from '../db/connection.ts';
import { jsonTextOf, type JsonText } from '../../common/json-text.ts';
import { CACHES_ON } from './switch.ts';
import {
  contactFilterOf,
  contactRecordOf,
  isStale,
  NO_CONTACTS,
  parseContactChange,
  type ContactDependencies,
} from './contact-changes.ts';
import type { OperationId } from '../../generated/operations.ts';

/** The channel migration 004's triggers notify when Contact Us records or picklist values change. */
const CONTACT_US_CHANGED = 'contact_us_changed';
/**
 * The channel migration 017's triggers notify when the site's content, SEO settings or object metadata change; the
 * payload is the changed table's name.
 */
export const SITE_CHANGED = 'site_changed';
/** How long an answer is kept: 5 minutes, as the platform's server-method result cache keeps it. */
export const SERVER_METHOD_RESULT_TTL_MS = 300_000;

export interface SerializedAnswer<T = unknown> {
  /** What the body is the JSON of: a type only, never set. */
  readonly encodes?: T;
  /** The answer's JSON text, UTF-8. */
  readonly body: Uint8Array;
  /** A strong ETag of the body, quoted (what server/http/answers/cache-headers.ts would compute). */
  readonly etag: string;
  /** The body gzipped, made at the first request that accepts it (gzippedBody, http/answers/compression.ts) and kept with the answer. */
  gzipped?: Uint8Array;
  /** The body in Brotli, likewise (brotliBody). */
  brotli?: Uint8Array;
}

/** A notification heard: its channel and payload. A null payload: notifications may have been missed. */
export interface HeardChange {
  channel: string;
  payload: string | null;
}

export interface ResultCacheOptions {
  /** false: every call computes its answer (the cold benchmark, LOCATOR_CACHE=off). */
  enabled: boolean;
  ttlMs: number;
  maxEntries: number;
  maxBytes: number;
  /** Subscribes to the changes that make answers stale; a null payload also means "may have missed some". */
  subscribe(onChange: (change: HeardChange) => void): Promise<Listening>;
  /**
   * Which keys a change makes stale: null (or no staleKeys) for every key. A change that stales only some
   * evicts those; answers being computed across it are still not kept, whatever their key.
   */
  staleKeys?: (change: HeardChange) => ((key: string) => boolean) | null;
  now?: () => number;
}

export interface ResultCacheStats {
  /** Answers served from an entry. */
  hits: number;
  /** Of the hits, those replay() served (before routing, before routing). */
  replayed: number;
  /** Answers that joined the computation of an identical call already under way. */
  joined: number;
  /** Answers computed (each one a call of the method). */
  misses: number;
  /** Times a change emptied the cache, or evicted the entries it made stale. */
  invalidations: number;
  /** Entries dropped to stay within the bounds. */
  evictions: number;
}

/** A request answer() is given: its path and query, and the operation it calls. */
interface AskingRequest {
  target: string;
  operationId: OperationId;
}

interface Entry {
  answer: SerializedAnswer;
  expiresAt: number;
}

/**
 * An answer's body and its strong ETag: the first 32 hex digits of the body's SHA-1, which this hardware hashes
 * some three times faster than MD5 (a page is some 68 KB: 0.05 ms against 0.13).
 */
function serializeAnswer<T>(value: T | JsonText<T>): SerializedAnswer<T> {
  // The text is the JSON of a T.
  return textAnswer(jsonTextOf(value)) as SerializedAnswer<T>;
}

/** A text (JSON, or a page's HTML) as a cached answer's body, with its strong ETag (the rule above). */
export function textAnswer(text: string): SerializedAnswer {
  const body = Buffer.from(text);
  return { body, etag: `"${hash('sha1', body, 'hex').slice(0, 32)}"` };
}

/** JSON with object keys sorted, so that equal arguments make equal cache keys. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class ResultCache {
  readonly stats: ResultCacheStats = { hits: 0, replayed: 0, joined: 0, misses: 0, invalidations: 0, evictions: 0 };
  readonly enabled: boolean;
  readonly #options: ResultCacheOptions;
  readonly #now: () => number;
  /** In least-recently-used order: a hit moves its entry to the end. */
  readonly #entries = new Map<string, Entry>();
  readonly #computing = new Map<string, Promise<SerializedAnswer>>();
  /** Request (path and query) -> key and the operation it calls, for replay(). */
  readonly #requests = new Map<string, { key: string; operationId: OperationId }>();
  #bytes = 0;
  /** Bumped by every change: an answer computed across a change is not kept. */
  #generation = 0;
  #listening: Listening | null = null;
  #subscribing: Promise<void> | null = null;
  #retryAt = 0;

  constructor(options: ResultCacheOptions) {
    this.#options = options;
    this.enabled = options.enabled;
    this.#now = options.now ?? Date.now;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /**
   * The answer for key: from the cache when it holds a current one, else compute()'s, kept for later.
   * request, when given, names the request (its path and query) that asked, and the operation it calls:
   * replay() answers it from now on.
   */
  async answer<T>(
    key: string,
    compute: () => Promise<T | JsonText<T>>,
    request?: AskingRequest,
  ): Promise<SerializedAnswer<T>> {
    // One key is one call of one method, so what is kept under it is what compute() gives.
    return (await this.#answer(key, compute, request)) as SerializedAnswer<T>;
  }

  /**
   * The entry kept under key, else make()'s, kept for later when keepable() says so once it is made (a page
   * that failed in part, or set a cookie, is for its own request only). For answers that are not JSON (the
   * pages): make() serializes them itself, and may carry more than the body and ETag.
   */
  async entry<E extends SerializedAnswer>(key: string, make: () => Promise<E>, keepable: () => boolean): Promise<E> {
    // One key is one kind of entry, so what is kept under it is what make() gives.
    return (await this.#answer(key, make, undefined, keepable)) as E;
  }

  async #answer(
    key: string,
    compute: () => Promise<unknown>,
    request?: AskingRequest,
    keepable?: () => boolean,
  ): Promise<SerializedAnswer> {
    // answer() computes values to serialize; entry() makes them serialized.
    const make = keepable ? (compute as () => Promise<SerializedAnswer>) : () => compute().then(serializeAnswer);
    if (!this.enabled) {
      this.stats.misses++;
      return make();
    }
    // Subscribed lazily: building the app must not touch the database.
    if (!this.#listening) await this.#subscribe();
    const live = this.#listening?.live === true;
    if (request !== undefined && live) this.#remember(request, key);
    const hit = this.#current(key, live);
    if (hit) return hit;
    const computing = this.#computing.get(key);
    if (computing) {
      this.stats.joined++;
      return computing;
    }
    this.stats.misses++;
    const generation = this.#generation;
    const promise = make()
      .then((answer) => {
        // Kept only when no change can have been missed while it was computed.
        if (live && generation === this.#generation && this.#listening?.live && (keepable?.() ?? true))
          this.#store(key, answer);
        return answer;
      })
      .finally(() => {
        if (this.#computing.get(key) === promise) this.#computing.delete(key);
      });
    this.#computing.set(key, promise);
    return promise;
  }

  /**
   * The current answer for a request (path and query) that answer() was given before, and the operation it
   * calls, without parsing the request again: a request that was valid once is valid again, and asks for the
   * same key. Whoever answers with it counts it in stats.replayed.
   */
  replay(target: string): { answer: SerializedAnswer; operationId: OperationId } | undefined {
    const request = this.#requests.get(target);
    const answer = request && this.#current(request.key, this.#listening?.live === true);
    return answer ? { answer, operationId: request.operationId } : undefined;
  }

  /** Forgets every answer, and every computation under way (their callers still get them). */
  invalidate(): void {
    this.#generation++;
    this.stats.invalidations++;
    this.#entries.clear();
    this.#computing.clear();
    this.#requests.clear();
    this.#bytes = 0;
  }

  /** Forgets the answers whose key stale() names, and every computation under way (their callers still get them). */
  evict(stale: (key: string) => boolean): void {
    this.#generation++;
    this.stats.invalidations++;
    for (const [key, entry] of this.#entries) if (stale(key)) this.#remove(key, entry);
    this.#computing.clear();
    for (const [target, request] of this.#requests) if (stale(request.key)) this.#requests.delete(target);
  }

  #changed(change: HeardChange): void {
    const stale = this.#options.staleKeys?.(change) ?? null;
    if (stale) this.evict(stale);
    else this.invalidate();
  }

  #subscribe(): Promise<void> {
    if (this.#now() < this.#retryAt) return Promise.resolve();
    this.#subscribing ??= this.#options
      .subscribe((change) => this.#changed(change))
      .then(
        (listening) => {
          this.#listening = listening;
        },
        (error: unknown) => {
          // Without notifications nothing may be kept; answers are computed until a later call subscribes.
          this.#retryAt = this.#now() + 5_000;
          console.error('The result cache could not subscribe to changes; answering uncached:', error);
        },
      )
      .finally(() => {
        this.#subscribing = null;
      });
    return this.#subscribing;
  }

  /** The entry of key when it may be served (counted as a hit, made the most recently used); drops a stale one. */
  #current(key: string, live: boolean): SerializedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (!live || entry.expiresAt <= this.#now()) {
      this.#remove(key, entry);
      return undefined;
    }
    this.stats.hits++;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.answer;
  }

  #remember({ target, operationId }: AskingRequest, key: string) {
    const known = this.#requests.get(target);
    if (known?.key === key && known.operationId === operationId) return;
    // Requests outnumber entries (several spell one key); past a bound they are forgotten, and re-learned.
    if (this.#requests.size >= this.#options.maxEntries * 4) this.#requests.clear();
    this.#requests.set(target, { key, operationId });
  }

  #store(key: string, answer: SerializedAnswer) {
    const bytes = answer.body.byteLength;
    if (bytes > this.#options.maxBytes / 4) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    this.#entries.set(key, { answer, expiresAt: this.#now() + this.#options.ttlMs });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#options.maxEntries && this.#bytes <= this.#options.maxBytes) break;
      this.#remove(oldest, entry);
      this.stats.evictions++;
    }
  }

  #remove(key: string, entry: Entry) {
    this.#entries.delete(key);
    this.#bytes -= entry.answer.body.byteLength;
  }
}

/** The server methods of the locator's answers, by key (apexCallKey: `Class.method:arguments`). */
const LOCATOR_METHOD = 'APT_ContactUsController.';

/** What of the Contact Us records a locator answer is made of, from its key: everything when not understood. */
function locatorAnswerDependencies(key: string): ContactDependencies {
  const colon = key.indexOf(':');
  if (!key.startsWith(LOCATOR_METHOD) || colon < 0) return 'everything';
  const method = key.slice(LOCATOR_METHOD.length, colon);
  // The places change only with the country data package, that is with a new start.
  if (method === 'getDependentStatePicklistsValues' || method === 'getPlaceSuggestions') return NO_CONTACTS;
  if (method === 'getDefaultContacts') return { filters: [], defaultContact: true };
  if (method !== 'getContacts' && method !== 'getContact' && method !== 'getNearestContacts') return 'everything';
  let args: unknown;
  try {
    args = JSON.parse(key.slice(colon + 1));
  } catch {
    return 'everything';
  }
  if (method === 'getContact') return contactRecordOf(args);
  const filter = contactFilterOf(args);
  return filter ? { filters: [filter], defaultContact: false } : 'everything';
}

/**
 * For a cache of things made of Contact Us records, kept under keys that dependencies() reads: the keys a
 * change makes stale, or null for every key (a change of another channel, or one that says everything).
 */
export function contactStaleKeys(
  dependencies: (key: string) => ContactDependencies,
): (change: HeardChange) => ((key: string) => boolean) | null {
  return ({ channel, payload }) => {
    if (channel !== CONTACT_US_CHANGED) return null;
    const change = parseContactChange(payload);
    if (change.everything) return null;
    return (key) => isStale(dependencies(key), change);
  };
}

/**
 * The locator's cache over db: a Contact Us change evicts the answers of the filters it touches (the default
 * contacts' when it touches them), a picklist change every answer.
 */
export function locatorResultCache(db: Database, env: NodeJS.ProcessEnv = process.env): ResultCache {
  return new ResultCache({
    enabled: CACHES_ON && env.LOCATOR_CACHE !== 'off',
    ttlMs: SERVER_METHOD_RESULT_TTL_MS,
    // A chunk of contacts is about 13 KB: 2,000 of them stay within the bytes.
    maxEntries: 2_000,
    maxBytes: 32 * 1024 * 1024,
    subscribe: (onChange) =>
      db.listen(CONTACT_US_CHANGED, (payload) => onChange({ channel: CONTACT_US_CHANGED, payload })),
    staleKeys: contactStaleKeys(locatorAnswerDependencies),
  });
}

/** Subscribes onChange to several channels at once: live while every subscription is. */
async function listenAll(
  db: Database,
  channels: readonly string[],
  onChange: (change: HeardChange) => void,
): Promise<Listening> {
  const listenings: Listening[] = [];
  const unlisten = async () => {
    await Promise.all(listenings.map((listening) => listening.unlisten()));
  };
  try {
    for (const channel of channels)
      listenings.push(await db.listen(channel, (payload) => onChange({ channel, payload })));
  } catch (error) {
    await unlisten();
    throw error;
  }
  return {
    get live() {
      return listenings.every((listening) => listening.live);
    },
    unlisten,
  };
}

/** Subscribes to every change of what the pages show a guest: contacts and picklists, content, SEO settings, object metadata. */
export function publicPageChanges(db: Database): ResultCacheOptions['subscribe'] {
  return (onChange) => listenAll(db, [CONTACT_US_CHANGED, SITE_CHANGED], onChange);
}
