/**
 * One interface over the two databases: embedded PGlite (a data directory; pglite.ts) or a PostgreSQL server
 * (DATABASE_URL; here). Both run the same SQL.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';
import { namedStatementsOf, preparedSession, type PreparedSession, type WithSession } from './named-statements.ts';
import type { Database, Listening, QueryOptions } from './database.ts';

/** The PostgreSQL driver, loaded only when a PostgreSQL database is opened (PGlite starts without it). */
const driver = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

/** What both databases offer: their interface (database.ts), which pglite-worker.ts shares. */
export type { Database, Listening, QueryOptions, Queryable } from './database.ts';

/** Commands that may fire triggers that notify. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE', 'COPY']);
const isWrite = (result: pg.QueryResult | pg.QueryResult[]) => [result].flat().some((one) => WRITES.has(one.command));

function toQuery(text: string, values: unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  return options?.prepareAs ? { name: options.prepareAs, text, values } : { text, values };
}

/**
 * COMMIT, and before it the mark of a transaction whose writes notified: set by every trigger function that
 * notifies (migration 018), for that transaction only.
 */
const COMMIT_READING_NOTIFIED = "SELECT current_setting('app.notified', true) AS notified; COMMIT";
/** A statement that notifies by itself rather than through a trigger. */
const NOTIFYING_SQL = /\bnotify\b|pg_notify/i;

/**
 * Commits a transaction; whether it notified. One that a failed statement aborted is rolled back by COMMIT,
 * as before, without an error: the read of the mark would fail there, so it is left out.
 */
async function commitReadingNotified(run: (sql: string) => Promise<pg.QueryResult[]>): Promise<boolean> {
  try {
    return notifiedIn(await run(COMMIT_READING_NOTIFIED));
  } catch (error) {
    if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) throw error;
    await run('COMMIT');
    return false;
  }
}
const IN_FAILED_TRANSACTION = '25P02';

/** Whether the results of COMMIT_READING_NOTIFIED say the transaction notified. */
function notifiedIn(results: pg.QueryResult[]): boolean {
  return results.some((one) => (one.rows?.[0] as { notified?: string | null } | undefined)?.notified === 'on');
}

/**
 * The connection settings with JIT compilation off, added to the start-up options the connection string (or
 * PGOPTIONS) already sends, such as a search_path. The app's statements are index lookups, for which PostgreSQL's
 * cost estimate (of an array of values unnested, say) passes jit_above_cost while compiling costs more than
 * running: an import's duplicate check of 200 records at 1,000,000 records took 274 ms with JIT, 241 ms of it
 * compiling, and 5 ms without.
 */
export function withJitOff(connectionString: string): { connectionString: string; options?: string } {
  const off = '-c jit=off';
  try {
    const url = new URL(connectionString);
    const own = url.searchParams.get('options') ?? process.env.PGOPTIONS;
    url.searchParams.set('options', own ? `${own} ${off}` : off);
    return { connectionString: url.toString() };
  } catch {
    // Not a URL (key=value pairs): the driver's own options then come from here or PGOPTIONS.
    return { connectionString, options: process.env.PGOPTIONS ? `${process.env.PGOPTIONS} ${off}` : off };
  }
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new (driver().Pool)({
    ...withJitOff(connectionString),
    max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
    // Idle connections are kept: a new one costs its first requests tens of ms (connecting, the record table's
    // catalog entries, each PREPARE), which closing them after 10 s idle (the default) made every lull pay again.
    idleTimeoutMillis: 0,
    keepAlive: true, // a server gone without a word is noticed, not waited on
  });
  // An idle connection the server ends (a restart, pg_terminate_backend, a timeout) is dropped by the pool, which
  // then emits the error: unheard, it would end the process. The next query takes a new connection.
  pool.on('error', (error) => console.error('A PostgreSQL connection of the pool was lost while idle:', error.message));
  // Fail at start, not at the first request, when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const listener = new PostgresListener(connectionString);
  const named = await namedStatementsOf((sql) => pool.query(sql));
  const sessions = new WeakMap<pg.PoolClient, PreparedSession>();
  const sessionOf = (client: pg.PoolClient) => {
    let session = sessions.get(client);
    if (!session) sessions.set(client, (session = preparedSession()));
    return session;
  };
  const runOn = (client: pg.PoolClient) => async (sql: string) => [await client.query(sql)].flat() as pg.QueryResult[];
  /** A connection of the pool, for a named statement outside a transaction: taken only when one runs. */
  const withConnection: WithSession<pg.QueryResult> = async (use) => {
    const client = await pool.connect();
    try {
      return await use(sessionOf(client), runOn(client));
    } finally {
      client.release();
    }
  };
  return {
    kind: 'postgres',
    query: async (sql, params, options) => {
      const result =
        (await named.run(withConnection, sql, params ?? [], options?.prepareAs)) ??
        (await pool.query(toQuery(sql, params, options)));
      if (isWrite(result)) await listener.barrier();
      return { rows: result.rows };
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      const session = sessionOf(client);
      const run = runOn(client);
      let notified = false;
      let notifiedBySql = false;
      let committed = false;
      // BEGIN goes with the transaction's first statement when that is a named one (one round trip less).
      let begun = false;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: async (sql, params, options) => {
            if (committed) throw new Error('The transaction has committed with its last statement: it takes no more');
            const tail = options?.last ? `; ${COMMIT_READING_NOTIFIED}` : '';
            const ran = await named.runIn(
              session,
              run,
              begun ? '' : 'BEGIN; ',
              sql,
              params ?? [],
              options?.prepareAs,
              tail,
            );
            let one: pg.QueryResult;
            if (ran) {
              begun ||= ran.began;
              one = ran.result;
              if (tail) {
                committed = true;
                notified = notifiedIn(ran.after);
              }
            } else {
              if (!begun) await client.query('BEGIN');
              begun = true;
              one = await client.query(toQuery(sql, params, options));
            }
            notifiedBySql ||= NOTIFYING_SQL.test(sql);
            return { rows: one.rows };
          },
        });
        if (begun && !committed) notified = await commitReadingNotified(run);
      } catch (error) {
        // Also when the statement that carried BEGIN failed (the transaction had begun): without one, a warning.
        if (!committed) await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await named.deallocateStale(session, run);
        client.release();
      }
      // A transaction that notified returns once this process's listeners have had its notifications (every
      // change of records notifies: migration 019); one that did not needs no round trip for that.
      if (notified || notifiedBySql) await listener.barrier();
      return result;
    },
    exec: async (sql) => {
      await pool.query(sql);
      await listener.barrier();
    },
    listen: (channel, onNotify) => listener.listen(channel, onNotify),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/**
 * LISTEN on PostgreSQL: one dedicated connection per Database for every channel, outside the pool (a pooled
 * connection would LISTEN only while checked out). When it drops, every listener hears null (it may have
 * missed notifications) and is not live until the connection is back, retried with growing delays.
 */
class PostgresListener {
  #client: pg.Client | null = null;
  #connecting: Promise<pg.Client> | null = null;
  #channels = new Map<string, Set<(payload: string | null) => void>>();
  #live = false;
  #closed = false;
  #retryDelay = 0;
  #retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly connectionString: string) {}

  async listen(channel: string, onNotify: (payload: string | null) => void): Promise<Listening> {
    if (this.#closed) throw new Error('The database is closed');
    let callbacks = this.#channels.get(channel);
    const first = !callbacks;
    if (!callbacks) this.#channels.set(channel, (callbacks = new Set()));
    callbacks.add(onNotify);
    const client = await this.#connect();
    // A new connection LISTENs to the channels known when it connected; LISTEN twice is harmless.
    if (first) await this.#query(client, `LISTEN ${driver().escapeIdentifier(channel)}`);
    // The object below hands out getters that read this server's private state.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    return {
      get live() {
        return self.#live && callbacks.has(onNotify);
      },
      unlisten: async () => {
        if (!callbacks.delete(onNotify) || callbacks.size > 0) return;
        this.#channels.delete(channel);
        if (this.#client)
          await this.#query(this.#client, `UNLISTEN ${driver().escapeIdentifier(channel)}`).catch(() => undefined);
      },
    };
  }

  /**
   * Resolves once this process's listeners have had every notification of the writes committed so far: the
   * notifying session signals the listening sessions before its commit returns, and a session sends what it
   * was signalled before it answers a query.
   */
  barrier(): Promise<void> {
    if (!this.#client || !this.#live || this.#channels.size === 0) return Promise.resolve();
    // One round trip at a time on the connection (pg queues, and will refuse, queries sent while one runs).
    // A round trip under way may have been sent before the caller's commit, so the caller waits for the next
    // one, which every caller arriving meanwhile shares.
    if (this.#nextRoundTrip) return this.#nextRoundTrip;
    if (!this.#roundTrip) return (this.#roundTrip = this.#selectOne());
    this.#nextRoundTrip = this.#roundTrip.then(() => {
      this.#nextRoundTrip = undefined;
      return (this.#roundTrip = this.#selectOne());
    });
    return this.#nextRoundTrip;
  }

  #roundTrip: Promise<void> | undefined;
  #nextRoundTrip: Promise<void> | undefined;
  /** The last query sent on the listening connection, settled or not. */
  #queued: Promise<unknown> = Promise.resolve();

  /** A query on the listening connection once the one before has settled: pg takes one at a time. */
  #query(client: pg.Client, sql: string): Promise<unknown> {
    const run = this.#queued.then(() => client.query(sql));
    this.#queued = run.catch(() => undefined);
    return run;
  }

  async #selectOne(): Promise<void> {
    try {
      if (this.#client) await this.#query(this.#client, 'SELECT 1');
    } catch {
      // A lost connection tells every listener so (#lost); the barrier has nothing more to wait for.
    } finally {
      this.#roundTrip = undefined;
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#live = false;
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    await client?.end().catch(() => undefined);
  }

  #connect(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new (driver().Client)({
        connectionString: this.connectionString,
        application_name: 'storefront-listen',
      });
      client.on('notification', (message) => this.#deliver(message.channel, message.payload ?? ''));
      client.on('error', () => this.#lost(client));
      client.on('end', () => this.#lost(client));
      try {
        await client.connect();
        for (const channel of this.#channels.keys()) await client.query(`LISTEN ${driver().escapeIdentifier(channel)}`);
      } catch (error) {
        client.end().catch(() => undefined);
        throw error;
      } finally {
        this.#connecting = null;
      }
      if (this.#closed) {
        await client.end().catch(() => undefined);
        throw new Error('The database is closed');
      }
      this.#client = client;
      this.#live = true;
      this.#retryDelay = 0;
      return client;
    })();
    return this.#connecting;
  }

  #deliver(channel: string, payload: string | null) {
    for (const callback of this.#channels.get(channel) ?? []) callback(payload);
  }

  #lost(client: pg.Client) {
    if (this.#client !== client) return;
    this.#client = null;
    this.#live = false;
    client.end().catch(() => undefined);
    for (const channel of this.#channels.keys()) this.#deliver(channel, null);
    if (!this.#closed) this.#reconnectLater();
  }

  #reconnectLater() {
    this.#retryDelay = Math.min(Math.max(this.#retryDelay * 2, 100), 10_000);
    this.#retryTimer = setTimeout(() => {
      this.#connect().then(
        // Notifications sent while it was down are lost: tell every listener so.
        () => {
          for (const channel of this.#channels.keys()) this.#deliver(channel, null);
        },
        () => {
          if (!this.#closed) this.#reconnectLater();
        },
      );
    }, this.#retryDelay);
    this.#retryTimer.unref();
  }
}
