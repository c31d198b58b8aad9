/**
 * A signed-in user's answers cached for replay before routing (server/http/entry/replay.ts): a GET of an object info,
 * a layout, a record or a record UI that the router's way answered before with a representation cached in
 * memory is answered again from it, as the locator's cached answers are for guests (routes/storefront.ts).
 *
 * A representation of metadata depends only on the request's target (path and query, as sent), the caller's
 * profile and the org's metadata, so it is cached per target and profile with the metadata's generation, and
 * used while that generation holds (every metadata change, on any server on the database, moves it on). One
 * read from records (getRecord, getRecordUi) depends on the caller too (who owns what, their layout states):
 * it is cached per target and user with the records it was read from and a mark taken before reading them,
 * and used while none of them has changed since (cache/record-changes.ts) and the metadata's generation holds.
 *
 * The caller must be the holder of a session cached in memory that the session gate would accept without
 * reading or writing anything (Sessions.cachedPrincipal); anything else goes through the router.
 */
import { frozenUnderTest } from '../../cache/frozen.ts';
import type { Context } from 'hono';
import type { AnswerCacheBounds } from '../../app-options.ts';
import type { OperationId } from '../../../generated/operations.ts';
import type { Database } from '../../db/connection.ts';
import { metadataGeneration } from '../../cache/per-database.ts';
import { changedSince, recordChangeMark } from '../../cache/record-changes.ts';
import { jsonOf } from '../../platform/core/etag.ts';
import type { Profile } from '../../platform/core/principal.ts';
import { representationForm } from './cache-headers.ts';
import { acceptsBrotli } from './compression.ts';
import { principalOf } from '../sessions/principal.ts';
import type { CachedAnswer } from '../entry/replay.ts';
import { incomingHeader, requestTarget } from '../connections/request-header.ts';
import type { Sessions } from '../sessions/session.ts';

/** The operations whose representations are cached: each per target, profile and metadata generation. */
type CachedMetadataOperation = Extract<OperationId, 'getObjectInfo' | 'getLayout'>;
/** The operations whose representations are read from records: each kept per target and user, with the records. */
type CachedRecordOperation = Extract<OperationId, 'getRecord' | 'getRecordUi'>;

interface CachedRepresentation {
  generation: number;
  /** The profile it was made for. */
  profile: Profile;
  /** Of a representation read from records: their ids (and layoutStateKey's), and the mark taken before reading them. */
  records?: { keys: string[]; mark: number };
  representation: { eTag: string };
  /** Its JSON's length: what keeping it costs, about. */
  size: number;
  operationId: CachedMetadataOperation | CachedRecordOperation;
  /** The representation's headers, per form (JSON or Brotli), made once each. */
  headers: (Readonly<Record<string, string>> | undefined)[];
}

/**
 * Targets cached at most, and the JSON they keep in all (a record UI is tens of kilobytes); past either, the
 * targets cached first are dropped (a caller can ask for many spellings of one object, and for many records).
 */
const ANSWER_CACHE_BOUNDS: AnswerCacheBounds = { targets: 2_000, size: 32 * 1024 * 1024 };

export class AnswerCache {
  readonly #db: Database;
  readonly #sessions: Sessions;
  readonly #bounds: AnswerCacheBounds;
  /** By target, then profile (metadata) or user id (records); in the order targets were first cached. */
  readonly #cached = new Map<string, Map<Profile | string, CachedRepresentation>>();
  /** The sizes of everything cached. */
  #size = 0;
  /** Answers replayed before routing. */
  answered = 0;

  constructor(db: Database, sessions: Sessions, bounds: Partial<AnswerCacheBounds> = {}) {
    this.#db = db;
    this.#sessions = sessions;
    this.#bounds = { ...ANSWER_CACHE_BOUNDS, ...bounds };
  }

  /**
   * The representation read() makes for the router's answer to a GET of operationId, cached for the replay stage
   * with the metadata's generation before the read (a change during it leaves the cached copy stale at once).
   */
  async represent<T extends { eTag: string }>(
    c: Context,
    operationId: CachedMetadataOperation,
    read: () => Promise<T>,
  ): Promise<T> {
    const generation = metadataGeneration(this.#db);
    const representation = await read();
    return generation === undefined ? representation : this.#keep(c, operationId, generation, representation);
  }

  /**
   * The representation read(reads) makes from records for the router's answer to a GET of operationId
   * (read fills reads with the ids of the records it read), cached for the replay stage with them, the mark of
   * record changes and the metadata's generation, both taken before the read.
   */
  async representRecords<T extends { eTag: string }>(
    c: Context,
    operationId: CachedRecordOperation,
    read: (reads: Set<string>) => Promise<T>,
  ): Promise<T> {
    const generation = metadataGeneration(this.#db);
    const mark = recordChangeMark(this.#db);
    const reads = new Set<string>();
    const representation = await read(reads);
    return generation === undefined || mark === undefined
      ? representation
      : this.#keep(c, operationId, generation, representation, { keys: [...reads], mark });
  }

  /**
   * Notes a representation made from the metadata of generation (and from records, given), and returns the one
   * to answer with: the one cached before when it has the same eTag (made once, it has its JSON and Brotli made
   * already), or this one.
   */
  #keep<T extends { eTag: string }>(
    c: Context,
    operationId: CachedMetadataOperation | CachedRecordOperation,
    generation: number,
    made: T,
    records?: CachedRepresentation['records'],
  ): T {
    if (c.req.method !== 'GET') return made;
    const principal = principalOf(c);
    if (principal.isGuest) return made;
    const target = requestTarget(c.req.raw, c.env);
    let byCaller = this.#cached.get(target);
    if (!byCaller) this.#cached.set(target, (byCaller = new Map()));
    const caller = records ? principal.userId : principal.profile;
    const before = byCaller.get(caller);
    const representation = before?.representation.eTag === made.eTag ? (before.representation as T) : made;
    const size = jsonOf(representation).length;
    this.#size += size - (before?.size ?? 0);
    const { profile } = principal;
    byCaller.set(caller, {
      generation,
      profile,
      records,
      representation: frozenUnderTest(representation),
      size,
      operationId,
      headers: [],
    });
    // The targets cached first go; the one just cached stays, whatever its size.
    for (const [first, callers] of this.#cached) {
      if ((this.#cached.size <= this.#bounds.targets && this.#size <= this.#bounds.size) || first === target) break;
      for (const dropped of callers.values()) this.#size -= dropped.size;
      this.#cached.delete(first);
    }
    return representation;
  }

  /** A cached answer to a signed-in user's repeated GET (server/http/entry/replay.ts), or undefined for the router. */
  replay(request: Request, env: unknown): CachedAnswer | undefined {
    if (this.#cached.size === 0) return undefined;
    const byCaller = this.#cached.get(requestTarget(request, env));
    if (!byCaller) return undefined;
    const principal = this.#sessions.cachedPrincipal(request, env);
    if (!principal) return undefined;
    const cached = byCaller.get(principal.profile) ?? byCaller.get(principal.userId);
    if (!cached || cached.profile !== principal.profile || cached.generation !== metadataGeneration(this.#db))
      return undefined;
    if (cached.records && changedSince(this.#db, cached.records.keys, cached.records.mark)) return undefined;
    const { body, headers } = representationForm(
      cached.representation,
      acceptsBrotli(incomingHeader(request, env, 'accept-encoding')),
    );
    const form = headers['Content-Encoding'] ? 1 : 0;
    return { operationId: cached.operationId, body, headers: (cached.headers[form] ??= headers) };
  }

  replayed(): void {
    this.answered++;
  }
}
