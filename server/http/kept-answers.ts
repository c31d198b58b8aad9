/**
 * The front of the app for a signed-in user's kept answers: a GET of an object info, a layout, a record or a
 * record UI that the whole way answered before with a representation kept in memory is answered again before
 * routing, the gate and the middleware chain, as the locator's cached answers are for guests (routes/storefront.ts).
 *
 * A representation of metadata depends only on the request's target (path and query, as sent), the caller's
 * profile and the org's metadata, so it is noted per target and profile with the metadata's generation, and
 * used while that generation holds (every metadata change, on any server on the database, moves it on). One
 * read from records (getRecord, getRecordUi) depends on the caller too (who owns what, their layout states):
 * it is noted per target and user with the records it was read from and a mark taken before reading them,
 * and used while none of them has changed since (cache/record-changes.ts) and the metadata's generation holds.
 *
 * The caller must be the holder of a session kept in memory that the session gate would accept without reading
 * or writing anything (Sessions.keptPrincipal); an operation a guest may call too is counted by the public
 * rate limit first, as the limits middleware counts it. Anything else (no such session, a conditional request,
 * another target or method) goes the whole way. The answer is the whole way's, header for header
 * (tests/contract/kept-answers.test.ts compares them): the security headers, the representation's form
 * (withETag's), and the Cache-Control and Vary of cacheFor.
 */
import { frozenUnderTest } from '../cache/frozen.ts';
import type { Context } from 'hono';
import type { KeptBounds } from '../app-options.ts';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import type { Database } from '../db/connection.ts';
import { metadataGeneration } from '../cache/per-database.ts';
import { changedSince, recordChangeMark } from '../cache/record-changes.ts';
import { jsonOf } from '../platform/etag.ts';
import type { Profile } from '../platform/principal.ts';
import { cacheControlFor, representationForm, varyWithSession } from './cache.ts';
import { acceptsBrotli } from './compression.ts';
import { countGuestRequest, type RequestLimits } from './limits.ts';
import { principalOf } from './principal.ts';
import { clientScheme, incomingHeader, requestTarget } from './request-header.ts';
import { apiSecurityHeaders } from './security-headers.ts';
import type { Sessions } from './session.ts';

/** The operations whose representations are noted: each kept per target, profile and metadata generation. */
export type KeptOperation = Extract<OperationId, 'getObjectInfo' | 'getLayout'>;
/** The operations whose representations are read from records: each kept per target and user, with the records. */
export type KeptRecordOperation = Extract<OperationId, 'getRecord' | 'getRecordUi'>;

interface Noted {
  generation: number;
  /** The profile it was made for. */
  profile: Profile;
  /** Of a representation read from records: their ids (and layoutStateKey's), and the mark taken before reading them. */
  records?: { keys: string[]; mark: number };
  representation: { eTag: string };
  /** Its JSON's length: what keeping it costs, about. */
  size: number;
  cacheControl: string;
  /** The operation is one a guest may call too: the public rate limit counts it, whoever calls. */
  limited: boolean;
  /** The answer's headers, per form (Brotli or not, over HTTPS or not), made once each. */
  headers: (Readonly<Record<string, string>> | undefined)[];
}

/**
 * Targets noted at most, and the JSON they keep in all (a record UI is tens of kilobytes); past either, the
 * targets noted first are dropped (a caller can ask for many spellings of one object, and for many records).
 */
export const KEPT_BOUNDS: KeptBounds = { targets: 2_000, size: 32 * 1024 * 1024 };

export class KeptAnswers {
  readonly #db: Database;
  readonly #sessions: Sessions;
  readonly #limits: RequestLimits;
  readonly #bounds: KeptBounds;
  /** By target, then profile (metadata) or user id (records); in the order targets were first noted. */
  readonly #noted = new Map<string, Map<Profile | string, Noted>>();
  /** The sizes of everything noted. */
  #size = 0;
  /** Answers given at the front. */
  answered = 0;

  constructor(db: Database, sessions: Sessions, limits: RequestLimits, bounds: Partial<KeptBounds> = {}) {
    this.#db = db;
    this.#sessions = sessions;
    this.#limits = limits;
    this.#bounds = { ...KEPT_BOUNDS, ...bounds };
  }

  /**
   * The representation read() makes for the whole way's answer to a GET of operationId, noted for the front
   * with the metadata's generation before the read (a change during it leaves the note stale at once).
   */
  async represent<T extends { eTag: string }>(c: Context, operationId: KeptOperation, read: () => Promise<T>): Promise<T> {
    const generation = metadataGeneration(this.#db);
    const representation = await read();
    return generation === undefined ? representation : this.#note(c, operationId, generation, representation);
  }

  /**
   * The representation read(reads) makes from records for the whole way's answer to a GET of operationId
   * (read fills reads with the ids of the records it read), noted for the front with them, the mark of
   * record changes and the metadata's generation, both taken before the read.
   */
  async representRecords<T extends { eTag: string }>(c: Context, operationId: KeptRecordOperation, read: (reads: Set<string>) => Promise<T>): Promise<T> {
    const generation = metadataGeneration(this.#db);
    const mark = recordChangeMark(this.#db);
    const reads = new Set<string>();
    const representation = await read(reads);
    return generation === undefined || mark === undefined ? representation : this.#note(c, operationId, generation, representation, { keys: [...reads], mark });
  }

  /**
   * Notes a representation made from the metadata of generation (and from records, given), and returns the one
   * to answer with: the one noted before when it has the same eTag (made once, it has its JSON and Brotli made
   * already), or this one.
   */
  #note<T extends { eTag: string }>(c: Context, operationId: KeptOperation | KeptRecordOperation, generation: number, made: T, records?: Noted['records']): T {
    if (c.req.method !== 'GET') return made;
    const principal = principalOf(c);
    if (principal.isGuest) return made;
    const target = requestTarget(c.req.raw, c.env);
    let byCaller = this.#noted.get(target);
    if (!byCaller) this.#noted.set(target, (byCaller = new Map()));
    const { cacheControl, limited } = this.#policyOf(operationId);
    const caller = records ? principal.userId : principal.profile;
    const before = byCaller.get(caller);
    const representation = before?.representation.eTag === made.eTag ? (before.representation as T) : made;
    const size = jsonOf(representation).length;
    this.#size += size - (before?.size ?? 0);
    const { profile } = principal;
    byCaller.set(caller, { generation, profile, records, representation: frozenUnderTest(representation), size, cacheControl, limited, headers: [] });
    // The targets noted first go; the one just noted stays, whatever its size.
    for (const [first, callers] of this.#noted) {
      if ((this.#noted.size <= this.#bounds.targets && this.#size <= this.#bounds.size) || first === target) break;
      for (const dropped of callers.values()) this.#size -= dropped.size;
      this.#noted.delete(first);
    }
    return representation;
  }

  /** Per operation: the Cache-Control of its answers, and whether the public rate limit counts it. */
  readonly #policies = new Map<KeptOperation | KeptRecordOperation, Pick<Noted, 'cacheControl' | 'limited'>>();

  #policyOf(operationId: KeptOperation | KeptRecordOperation): Pick<Noted, 'cacheControl' | 'limited'> {
    let policy = this.#policies.get(operationId);
    if (!policy) {
      const { cacheTtl, guest } = operationTable[operationId];
      if (cacheTtl === null || cacheTtl <= 0) throw new Error(`${operationId} has no x-cache-ttl, so its answers are not kept`);
      policy = { cacheControl: cacheControlFor(cacheTtl), limited: guest && this.#limits.publicLimiter !== undefined };
      this.#policies.set(operationId, policy);
    }
    return policy;
  }

  /** The answer at the front, or undefined for the whole way. */
  readonly front = (request: Request, env: unknown): Response | undefined => {
    if (this.#noted.size === 0 || request.method !== 'GET') return undefined;
    const byCaller = this.#noted.get(requestTarget(request, env));
    if (!byCaller || incomingHeader(request, env, 'if-none-match') !== undefined) return undefined;
    const principal = this.#sessions.keptPrincipal(request, env);
    if (!principal) return undefined;
    const noted = byCaller.get(principal.profile) ?? byCaller.get(principal.userId);
    if (!noted || noted.profile !== principal.profile || noted.generation !== metadataGeneration(this.#db)) return undefined;
    if (noted.records && changedSince(this.#db, noted.records.keys, noted.records.mark)) return undefined;
    // Counted once: over the limit, the limits middleware counts it again and answers 429.
    if (noted.limited && countGuestRequest(this.#limits, request, env)) return undefined;
    const { body, headers } = representationForm(noted.representation, acceptsBrotli(incomingHeader(request, env, 'accept-encoding')));
    const https = clientScheme(request, env, this.#sessions.settings.trustProxy) === 'https';
    const form = (headers['Content-Encoding'] ? 2 : 0) + (https ? 1 : 0);
    this.answered++;
    // A Response with plain headers, which @hono/node-server writes as they are.
    return new Response(body, {
      status: 200,
      headers: (noted.headers[form] ??= { ...headers, 'Cache-Control': noted.cacheControl, Vary: varyWithSession(headers.Vary), ...apiSecurityHeaders(https) }),
    });
  };
}
