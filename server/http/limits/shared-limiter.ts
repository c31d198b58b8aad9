/**
 * A rate limit counted in the database, so that every server process on one PostgreSQL database enforces the
 * configured limit together (server/http/limits/limits.ts uses it there; PGlite has one process, and counts in
 * memory). The same fixed windows as the in-memory limiter, starting with a client's first request: one row
 * per limiter and client (rate_limit_window), counted with an UPSERT that starts a new window once the last
 * one has ended.
 *
 * hitExact() counts in the database and answers from the count it returns: the limits middleware uses it.
 * hitIfKnown() answers at once, for the replay stage, which must not wait: from the count read in the last
 * second plus this process's hits not yet written or being written, which are then written in one statement;
 * without a count that fresh it answers null, and the request goes the router's way, to hitExact.
 */
import type { Clock } from '../../app-options.ts';
import type { Queryable } from '../../db/connection.ts';

interface LocalCount {
  /** When the client's window started (clock milliseconds), as the database last said. */
  windowStart: number;
  /** The count the database last returned for the window. */
  known: number;
  /** This process's hits not yet written. */
  pending: number;
  /** This process's hits being written (not yet in known). */
  writing: number;
  /** When known was last read from the database; 0 never. */
  readAt: number;
}

/** How old a count read from the database may be for hitIfKnown() to answer from it. */
const FRESH_MS = 1000;

/** Counts hits (per client, $2 and $3 arrays) at $4 (now) in windows of $5 milliseconds: a new window once the last has ended. */
const COUNT_SQL = `
  INSERT INTO rate_limit_window AS w (limiter, client_key, window_start, hits)
  SELECT $1, k, $4::bigint, h FROM unnest($2::text[], $3::int[]) AS t(k, h)
  ON CONFLICT (limiter, client_key) DO UPDATE SET
    hits = CASE WHEN w.window_start + $5::bigint <= EXCLUDED.window_start THEN EXCLUDED.hits ELSE w.hits + EXCLUDED.hits END,
    window_start = CASE WHEN w.window_start + $5::bigint <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE w.window_start END
  RETURNING client_key, window_start, hits`;

export class SharedWindowLimiter {
  private readonly local = new Map<string, LocalCount>();
  private flushing: Promise<void> | null = null;
  private again = false;
  private nextSweep = 0;

  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly db: Queryable,
    private readonly clock: Clock,
  ) {}

  private retryAfter(windowStart: number, now: number): number {
    return Math.max(1, Math.ceil((windowStart + this.windowMs - now) / 1000));
  }

  /** The local count of a client, a new window when its last has ended. */
  private entry(key: string, now: number): LocalCount {
    let entry = this.local.get(key);
    if (!entry || now >= entry.windowStart + this.windowMs) {
      entry = { windowStart: now, known: 0, pending: entry?.pending ?? 0, writing: entry?.writing ?? 0, readAt: 0 };
      this.local.set(key, entry);
    }
    return entry;
  }

  private learn(key: string, windowStart: number, hits: number, now: number) {
    const entry = this.local.get(key);
    if (!entry) return;
    if (windowStart !== entry.windowStart) {
      entry.windowStart = windowStart;
      entry.known = hits;
    } else entry.known = Math.max(entry.known, hits);
    entry.readAt = now;
  }

  /**
   * Counts a request at once from what this process knows: 0 within the limit, else the seconds to wait; or,
   * without counting it, null when this process has not read the client's count in the last second.
   */
  hitIfKnown(key: string): number | null {
    const now = this.clock.now();
    const entry = this.local.get(key);
    if (!entry || now >= entry.windowStart + this.windowMs || now - entry.readAt > FRESH_MS) return null;
    entry.pending++;
    void this.flush();
    return entry.known + entry.writing + entry.pending <= this.limit ? 0 : this.retryAfter(entry.windowStart, now);
  }

  /** Counts a request in the database; 0 within the limit, else the seconds to wait. */
  async hitExact(key: string): Promise<number> {
    const now = this.clock.now();
    this.sweep(now);
    // This process's hits the replay stage counted are in the count too: those being written (once the
    // write under way has settled), and those not yet written, which go with this one.
    if (this.flushing) await this.flushing;
    const entry = this.entry(key, now);
    const carried = entry.pending;
    entry.pending -= carried;
    entry.writing += carried;
    let row: { window_start: string; hits: number };
    try {
      ({
        rows: [row],
      } = await this.db.query<{ window_start: string; hits: number }>(COUNT_SQL, [
        this.name,
        [key],
        [1 + carried],
        now,
        this.windowMs,
      ]));
      entry.writing -= carried;
    } catch (error) {
      entry.writing -= carried;
      entry.pending += carried;
      // The database cannot count now: go by this process's own count rather than refuse every client.
      console.error(
        `Rate limit ${this.name}: counting in the database failed, counting in this process:`,
        (error as Error).message,
      );
      entry.known++;
      return entry.known + entry.writing + entry.pending <= this.limit ? 0 : this.retryAfter(entry.windowStart, now);
    }
    const windowStart = Number(row.window_start);
    const hits = Number(row.hits);
    this.learn(key, windowStart, hits, this.clock.now());
    return hits <= this.limit ? 0 : this.retryAfter(windowStart, now);
  }

  /** Writes the hits not yet written, in one statement, and reads back every client's count. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        const batch = [...this.local]
          .filter(([, entry]) => entry.pending > 0)
          .map(([key, entry]) => ({ key, entry, hits: entry.pending }));
        if (batch.length === 0) break;
        for (const item of batch) {
          item.entry.pending -= item.hits;
          item.entry.writing += item.hits;
        }
        try {
          const now = this.clock.now();
          const { rows } = await this.db.query<{ client_key: string; window_start: string; hits: number }>(COUNT_SQL, [
            this.name,
            batch.map((item) => item.key),
            batch.map((item) => item.hits),
            now,
            this.windowMs,
          ]);
          // The counts read back hold the hits just written.
          for (const item of batch) item.entry.writing -= item.hits;
          for (const row of rows)
            this.learn(row.client_key, Number(row.window_start), Number(row.hits), this.clock.now());
        } catch (error) {
          // Not written: keep them as this process's own, and try with the next hit.
          for (const item of batch) {
            item.entry.writing -= item.hits;
            item.entry.pending += item.hits;
          }
          console.error(`Rate limit ${this.name}: writing counts failed:`, (error as Error).message);
          break;
        }
      } while (this.again);
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** At most once per window: drops ended windows, here and in the database. */
  private sweep(now: number) {
    if (now < this.nextSweep) return;
    this.nextSweep = now + this.windowMs;
    for (const [key, entry] of this.local)
      if (now >= entry.windowStart + this.windowMs && entry.pending + entry.writing === 0) this.local.delete(key);
    void this.db
      .query('DELETE FROM rate_limit_window WHERE limiter = $1 AND window_start + $2::bigint <= $3', [
        this.name,
        this.windowMs,
        now,
      ])
      .catch(() => undefined);
  }

  /** Clients with a count under way in this process. */
  get size(): number {
    return this.local.size;
  }
}
