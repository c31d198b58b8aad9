/**
 * A database handle's subscription to one notification channel (LISTEN), for what is kept in memory until a
 * notification says it changed: the org's metadata (per-database.ts), records (record-changes.ts).
 */
import type { Database, Listening } from '../db/connection.ts';

/** How long after a failed LISTEN the next try may be (meanwhile, nothing that relies on it is kept). */
const RETRY_MS = 5_000;

/** Made at the first call of subscribe; made again RETRY_MS after one that failed (meanwhile, not live). */
export class Subscription {
  #listening: Listening | null = null;
  #subscribing: Promise<void> | null = null;
  #retryAt = 0;

  constructor(
    private readonly channel: string,
    private readonly onNotify: (payload: string | null) => void,
    /** What is kept by it, for the message of a failure. */
    private readonly what: string,
  ) {}

  /** Whether every notification on the channel is heard: false before subscribing, and while some may be missed. */
  get live(): boolean {
    return this.#listening?.live === true;
  }

  get subscribed(): boolean {
    return this.#listening !== null;
  }

  subscribe(db: Database): Promise<void> {
    if (Date.now() < this.#retryAt) return Promise.resolve();
    this.#subscribing ??= db
      .listen(this.channel, this.onNotify)
      .then(
        (listening) => {
          this.#listening = listening;
        },
        (error: unknown) => {
          this.#retryAt = Date.now() + RETRY_MS;
          console.error(`${this.what} could not subscribe to changes; reading it at every call meanwhile:`, error);
        },
      )
      .finally(() => {
        this.#subscribing = null;
      });
    return this.#subscribing;
  }
}
