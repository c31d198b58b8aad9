/**
 * The front of the app for a signed-in user's metadata: a GET of an object info or a layout that the whole
 * way answered before with a representation kept in memory is answered again before routing and the
 * middleware chain, as the locator's cached answers are for guests (routes/storefront.ts).
 *
 * Such a representation depends only on the request's target (path and query, as sent), the caller's profile
 * and the org's metadata, so it is noted per target and profile with the metadata's generation, and used
 * while that generation holds (every metadata change, on any server on the database, moves it on). The
 * caller must be the holder of a session kept in memory that the middleware would accept without reading or
 * writing anything (Sessions.keptPrincipal); an operation a guest may call too is counted by the public rate
 * limit first, as the middleware counts it. Anything else (no such session, a conditional request, another
 * target or method) goes the whole way. The answer is the whole way's, header for header
 * (tests/contract/kept-answers.test.ts compares them): the security headers, the representation's form
 * (withETag's), and the Cache-Control and Vary of cacheFor.
 */
import type { Context } from 'hono';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import type { Database } from '../db/connection.ts';
import { metadataGeneration } from '../db/per-database.ts';
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

interface Noted {
  generation: number;
  representation: { eTag: string };
  cacheControl: string;
  /** The operation is one a guest may call too: the public rate limit counts it, whoever calls. */
  limited: boolean;
  /** The answer's headers, per form (Brotli or not, over HTTPS or not), made once each. */
  headers: (Readonly<Record<string, string>> | undefined)[];
}

/** Targets noted at most; past it the oldest is dropped (a caller can ask for many spellings of one object). */
const MAX_TARGETS = 2_000;

export class KeptAnswers {
  readonly #db: Database;
  readonly #sessions: Sessions;
  readonly #limits: RequestLimits;
  /** By target, then profile; in the order targets were first noted. */
  readonly #noted = new Map<string, Map<Profile, Noted>>();
  /** Answers given at the front. */
  answered = 0;

  constructor(db: Database, sessions: Sessions, limits: RequestLimits) {
    this.#db = db;
    this.#sessions = sessions;
    this.#limits = limits;
  }

  /**
   * The representation read() makes for the whole way's answer to a GET of operationId, noted for the front
   * with the metadata's generation before the read (a change during it leaves the note stale at once).
   */
  async represent<T extends { eTag: string }>(c: Context, operationId: KeptOperation, read: () => Promise<T>): Promise<T> {
    const generation = metadataGeneration(this.#db);
    const representation = await read();
    this.#note(c, operationId, generation, representation);
    return representation;
  }

  /** Notes a representation made from the metadata of generation (undefined: it may be stale already, and is not noted). */
  #note(c: Context, operationId: KeptOperation, generation: number | undefined, representation: { eTag: string }): void {
    if (generation === undefined || c.req.method !== 'GET') return;
    const principal = principalOf(c);
    if (principal.isGuest) return;
    const target = requestTarget(c.req.raw, c.env);
    let byProfile = this.#noted.get(target);
    if (!byProfile) {
      if (this.#noted.size >= MAX_TARGETS) this.#noted.delete(this.#noted.keys().next().value!);
      this.#noted.set(target, (byProfile = new Map()));
    }
    const { cacheTtl, guest } = operationTable[operationId];
    if (cacheTtl === null || cacheTtl <= 0) throw new Error(`${operationId} has no x-cache-ttl, so its answers are not kept`);
    const limited = guest && this.#limits.publicLimiter !== undefined;
    byProfile.set(principal.profile, { generation, representation, cacheControl: cacheControlFor(cacheTtl), limited, headers: [] });
  }

  /** The answer at the front, or undefined for the whole way. */
  readonly front = (request: Request, env: unknown): Response | undefined => {
    if (this.#noted.size === 0 || request.method !== 'GET') return undefined;
    const byProfile = this.#noted.get(requestTarget(request, env));
    if (!byProfile || incomingHeader(request, env, 'if-none-match') !== undefined) return undefined;
    const principal = this.#sessions.keptPrincipal(request, env);
    if (!principal) return undefined;
    const noted = byProfile.get(principal.profile);
    if (!noted || noted.generation !== metadataGeneration(this.#db)) return undefined;
    // Counted once: over the limit, the middleware counts it again and answers 429.
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
