/**
 * Signed-in sessions kept in memory, so that a request does not read its session from the database. Every
 * change that could end or alter a session notifies user_session_changed at commit (migration 016): a
 * session row updated or deleted (sign-out, a new sign-in, expiry, its idle expiry moved on), a User record
 * updated or deleted (deactivated, another profile). Each server listens and drops what the change touched,
 * so a sign-out or a deactivation through any server holds on every server as soon as the notification
 * arrives (through the server that made it, before the change's request is answered). While notifications
 * may be missed nothing is kept, and a read that was under way when a change arrived is not kept; with
 * CACHES=off, nothing ever is.
 */
import type { Database, Listening } from '../db/connection.ts';
import { CACHES_ON } from './switch.ts';

const USER_SESSION_CHANGED = 'user_session_changed';
const RETRY_MS = 5_000;

interface CachedSession<S extends { userId: string }, P> {
  session: S;
  principal: P;
}

export class SessionCache<S extends { userId: string }, P> {
  /** By the session id's hash, in the order they were kept (the oldest is dropped first past maxEntries). */
  readonly #entries = new Map<string, CachedSession<S, P>>();
  readonly #db: Database;
  readonly #maxEntries: number;
  #generation = 0;
  #listening: Listening | null = null;
  #subscribing: Promise<void> | null = null;
  #retryAt = 0;

  constructor(db: Database, maxEntries = 10_000) {
    this.#db = db;
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A kept session (a copy: the request may change its expiry), or undefined. */
  get(idHash: string): CachedSession<S, P> | undefined {
    const entry = this.#entries.get(idHash);
    if (!entry) return undefined;
    if (this.#listening?.live !== true) {
      this.#entries.clear();
      return undefined;
    }
    return { session: { ...entry.session }, principal: entry.principal };
  }

  /** A kept session as it is kept, not a copy: for a caller that only reads it. */
  peek(idHash: string): Readonly<CachedSession<S, P>> | undefined {
    if (this.#listening?.live !== true) return undefined;
    return this.#entries.get(idHash);
  }

  /**
   * Reads a session with read() and keeps it when no change may have been missed meanwhile. Subscribes to
   * changes first, on the first call (building the app must not touch the database).
   */
  async read(idHash: string, read: () => Promise<CachedSession<S, P> | null>): Promise<CachedSession<S, P> | null> {
    if (!this.#listening) await this.#subscribe();
    const generation = this.#generation;
    const found = await read();
    if (found && CACHES_ON && generation === this.#generation && this.#listening?.live === true) {
      this.#entries.delete(idHash);
      this.#entries.set(idHash, { session: { ...found.session }, principal: found.principal });
      for (const oldest of this.#entries.keys()) {
        if (this.#entries.size <= this.#maxEntries) break;
        this.#entries.delete(oldest);
      }
    }
    return found;
  }

  /** Drops a session (it ended here). */
  drop(idHash: string): void {
    this.#generation++;
    this.#entries.delete(idHash);
  }

  #changed(payload: string | null) {
    this.#generation++;
    if (payload === null || payload === '*') this.#entries.clear();
    else if (payload.startsWith('user:')) {
      const userId = payload.slice('user:'.length);
      for (const [idHash, entry] of this.#entries) if (entry.session.userId === userId) this.#entries.delete(idHash);
    } else this.#entries.delete(payload);
  }

  #subscribe(): Promise<void> {
    if (Date.now() < this.#retryAt) return Promise.resolve();
    this.#subscribing ??= this.#db
      .listen(USER_SESSION_CHANGED, (payload) => this.#changed(payload))
      .then(
        (listening) => {
          this.#listening = listening;
        },
        (error: unknown) => {
          this.#retryAt = Date.now() + RETRY_MS;
          console.error('Sessions could not subscribe to changes; reading them at every request meanwhile:', error);
        },
      )
      .finally(() => {
        this.#subscribing = null;
      });
    return this.#subscribing;
  }
}
