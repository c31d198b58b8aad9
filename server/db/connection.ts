/**
 * One interface over the two databases: embedded PGlite (a data directory) or a PostgreSQL server
 * (DATABASE_URL). Both run the same SQL.
 */
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createRequire } from 'node:module';
import type pg from 'pg';

/** The PostgreSQL driver, loaded only when a PostgreSQL database is opened (PGlite starts without it). */
const driver = (): typeof pg => createRequire(import.meta.url)('pg') as typeof pg;

export interface QueryOptions {
  /**
   * Keep the statement prepared under this name (on each connection), run on its one generic plan: planned
   * once rather than at every call. Name only statements whose best plan does not depend on their parameter
   * values. Outside a transaction, PREPARE and EXECUTE (see namedStatements); in one, on PostgreSQL, the
   * driver's named statement (PostgreSQL may keep a generic plan after five calls), on PGlite PREPARE too.
   */
  prepareAs?: string;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<{ rows: Row[] }>;
}

/** A subscription to a notification channel (LISTEN). */
export interface Listening {
  /**
   * False while notifications may be missed (PostgreSQL: the listening connection is down and being
   * re-established): nothing that relies on them may be trusted meanwhile.
   */
  readonly live: boolean;
  unlisten(): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Calls onNotify with the payload of each notification on channel (NOTIFY, pg_notify) from any session,
   * once its transaction commits. Also called, with null, whenever notifications may have been missed
   * (the listening connection was lost, or re-established). A write through this Database returns only
   * after this process's listeners have had the notifications it caused.
   */
  listen(channel: string, onNotify: (payload: string | null) => void): Promise<Listening>;
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * PGlite's shared buffers. The engine zeroes its whole shared memory at every start, in WebAssembly, before
 * it answers anything: at PostgreSQL's default of 128 MB that was a third of PGlite's start-up time, the
 * largest part of a restart after kill -9 (`npm run bench:restart`). 32 MB still holds the demo org's working
 * set; pages beyond it are read from the operating system's file cache.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * Named statements on PGlite, which has no prepared statements of its own: its query() plans each statement
 * afresh, and planning one over the record table, with its many indexes, reads every index's size from the
 * WebAssembly file system, which was most of a record read's cost. A statement the caller names (prepareAs) is
 * prepared once (PREPARE) and run with EXECUTE, whose arguments are SQL literals (it takes no bind
 * parameters): each parameter's text as the driver would send it, quoted, which the statement's parameter
 * type reads as the driver's text would be read. A value with no such text (bytes) takes the ordinary way
 * (the result undefined). Outside a transaction, so does a statement PREPARE refuses or EXECUTE fails (then
 * prepared again at its next use: its tables may have changed shape), which answers or fails as it would have;
 * in a transaction, whose statements cannot be run again once one failed, the failure is the caller's.
 */
async function namedStatements(db: PGlite) {
  // With standard_conforming_strings (PostgreSQL's default), a backslash in '…' is itself: doubling quotes suffices.
  const { rows } = await db.query<{ standard_conforming_strings: string }>('SHOW standard_conforming_strings');
  const usable = rows[0]?.standard_conforming_strings === 'on';
  const prepared = new Map<string, string | null>();
  const run = async (
    on: Pick<Transaction, 'exec'>,
    inTransaction: boolean,
    sql: string,
    params: unknown[],
    name: string | undefined,
  ): Promise<{ rows: unknown[] } | undefined> => {
    if (!usable || name === undefined || !STATEMENT_NAME.test(name)) return undefined;
    const literals = params.map(sqlLiteral);
    if (literals.some((literal) => literal === undefined)) return undefined;
    const text = prepared.get(name);
    if (text === null || (text !== undefined && text !== sql)) return undefined;
    if (text === undefined) {
      try {
        await on.exec(`PREPARE "${GENERIC}${name}" AS ${sql}`);
        prepared.set(name, sql);
      } catch (error) {
        // In a transaction, the failure is the transaction's (which may have failed before): tried again next time.
        if (inTransaction) throw error;
        prepared.set(name, null);
        return undefined;
      }
    }
    // A named statement's best plan does not depend on its parameters (QueryOptions.prepareAs): its generic
    // plan, made once, is the one to use. Left to choose, PostgreSQL plans such a statement again at every
    // run whenever the generic plan's estimate is above a custom one's, which an array parameter's always is.
    try {
      const results = await on.exec(genericExecute(name, literals as string[]));
      return results[1];
    } catch (error) {
      prepared.delete(name);
      if (inTransaction) {
        // Deallocated once the transaction has ended (a prepared statement outlives a rollback).
        stale.add(name);
        throw error;
      }
      await on.exec(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
      return undefined;
    }
  };
  const stale = new Set<string>();
  /** Deallocates the statements that failed in a transaction, once it has ended. */
  const deallocateStale = async () => {
    for (const name of stale) await db.exec(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
    stale.clear();
  };
  return Object.assign(run, { deallocateStale });
}

const quoted = (text: string) => (text.includes('\0') ? undefined : `'${text.replaceAll("'", "''")}'`);

/** A parameter's text as the driver sends it (dates in ISO form, arrays as array literals, objects as JSON), as an SQL literal. */
export function sqlLiteral(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'number' || typeof value === 'bigint')
    return Number.isFinite(Number(value)) || typeof value === 'bigint' ? quoted(String(value)) : undefined;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : quoted(value.toISOString());
  if (Array.isArray(value)) {
    const text = arrayText(value);
    return text === undefined ? undefined : quoted(text);
  }
  if (value instanceof Uint8Array || ArrayBuffer.isView(value)) return undefined;
  if (typeof value === 'object') return quoted(JSON.stringify(value));
  return undefined;
}

function arrayText(values: unknown[]): string | undefined {
  const items: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) items.push('NULL');
    else if (Array.isArray(value)) {
      const inner = arrayText(value);
      if (inner === undefined) return undefined;
      items.push(inner);
    } else {
      const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
      items.push(`"${text.replace(/[\\"]/g, '\\$&')}"`);
    }
  }
  return `{${items.join(',')}}`;
}

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  // undefined: an in-memory database (tests that need no data directory).
  // pg_trgm: the trigram similarity of fuzzy duplicate matching (CREATE EXTENSION in a migration).
  const db = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const named = await namedStatements(db);
  return {
    kind: 'pglite',
    // A query's Row type is the caller's statement of what its SQL selects; the driver cannot know it.
    query: async (sql, params, options) => ({
      rows: ((await named(db, false, sql, params ?? [], options?.prepareAs)) ?? (await db.query(sql, params))).rows as never[],
    }),
    transaction: async (fn) => {
      try {
        return await db.transaction((tx) =>
          fn({
            query: async (sql, params, options) => ({
              rows: ((await named(tx, true, sql, params ?? [], options?.prepareAs)) ?? (await tx.query(sql, params))).rows as never[],
            }),
          }),
        );
      } finally {
        await named.deallocateStale();
      }
    },
    exec: async (sql) => {
      await db.exec(sql);
    },
    // One session: a notification reaches the listeners (as a microtask) before the write that caused it
    // returns, so writes need no barrier here.
    listen: async (channel, onNotify) => {
      const unlisten = await db.listen(channel, onNotify);
      return { live: true, unlisten: () => unlisten() };
    },
    close: () => db.close(),
  };
}

/** Commands that may fire triggers that notify. */
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TRUNCATE', 'COPY']);
const isWrite = (result: pg.QueryResult | pg.QueryResult[]) => [result].flat().some((one) => WRITES.has(one.command));

function toQuery(text: string, values: unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  return options?.prepareAs ? { name: options.prepareAs, text, values } : { text, values };
}

/**
 * Named statements on PostgreSQL, run on their generic plan. The driver's named statements are prepared once
 * per connection, but PostgreSQL still plans them again at every run whenever the generic plan's estimate is
 * above a custom one's, which an array parameter's always is: planning a read of records by id, over the
 * record table's many indexes, cost ten times its execution. Here a named statement is prepared once per
 * connection (PREPARE) and run with EXECUTE under plan_cache_mode = force_generic_plan, set and reset around
 * it in the same round trip, its parameters as SQL literals (see namedStatements). Returns undefined for the
 * ordinary way: no name, a value with no literal, a statement PREPARE refuses.
 */
async function namedPostgresStatements(pool: pg.Pool) {
  const { rows } = await pool.query<{ standard_conforming_strings: string }>('SHOW standard_conforming_strings');
  const usable = rows[0]?.standard_conforming_strings === 'on';
  const preparedOn = new WeakMap<pg.PoolClient, Map<string, string>>();
  const refused = new Set<string>();
  const preparedBy = (client: pg.PoolClient) => {
    let prepared = preparedOn.get(client);
    if (!prepared) preparedOn.set(client, (prepared = new Map()));
    return prepared;
  };
  /** The literals of a named statement's parameters, or undefined for the ordinary way. */
  const literalsFor = (sql: string, params: unknown[], name: string | undefined, client?: pg.PoolClient): string[] | undefined => {
    if (!usable || name === undefined || !STATEMENT_NAME.test(name) || refused.has(name)) return undefined;
    const text = client && preparedBy(client).get(name);
    if (text !== undefined && text !== sql) return undefined;
    const literals = params.map(sqlLiteral);
    return literals.some((literal) => literal === undefined) ? undefined : (literals as string[]);
  };

  /** Outside a transaction: on a connection of the pool. */
  const run = async (sql: string, params: unknown[], name: string | undefined): Promise<pg.QueryResult | undefined> => {
    if (literalsFor(sql, params, name) === undefined) return undefined;
    const client = await pool.connect();
    try {
      const literals = literalsFor(sql, params, name, client);
      if (!literals || name === undefined) return undefined;
      const prepared = preparedBy(client);
      if (!prepared.has(name)) {
        try {
          await client.query(`PREPARE "${GENERIC}${name}" AS ${sql}`);
          prepared.set(name, sql);
        } catch {
          refused.add(name);
          return undefined;
        }
      }
      try {
        return lastButOne(await client.query(genericExecute(name, literals)));
      } catch {
        prepared.delete(name);
        await client.query(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
        return undefined;
      }
    } finally {
      client.release();
    }
  };

  /**
   * In a transaction, on its connection, with `begin` (BEGIN, when the transaction has not begun yet) in the same
   * round trip. A failure is the transaction's; a statement EXECUTE failed is deallocated once it has ended
   * (`stale`), since it may stay unusable (its tables changed shape).
   */
  const runIn = async (
    client: pg.PoolClient,
    begin: string,
    stale: Set<string>,
    sql: string,
    params: unknown[],
    name: string | undefined,
  ): Promise<{ result: pg.QueryResult; begun: boolean } | undefined> => {
    const literals = literalsFor(sql, params, name, client);
    if (!literals || name === undefined) return undefined;
    const prepared = preparedBy(client);
    let begun = false;
    if (!prepared.has(name)) {
      // On its own (with BEGIN): whether PREPARE took is then known for certain (it outlives a rollback).
      await client.query(`${begin}PREPARE "${GENERIC}${name}" AS ${sql}`);
      prepared.set(name, sql);
      begun = begin !== '';
    }
    try {
      return { result: lastButOne(await client.query(`${begun ? '' : begin}${genericExecute(name, literals)}`)), begun: begin !== '' };
    } catch (error) {
      prepared.delete(name);
      stale.add(name);
      throw error;
    }
  };

  /** Deallocates, once a transaction has ended, the statements that failed in it. */
  const deallocate = async (client: pg.PoolClient, stale: Set<string>) => {
    for (const name of stale) await client.query(`DEALLOCATE "${GENERIC}${name}"`).catch(() => undefined);
  };

  return { run, runIn, deallocate };
}

/** The result of the EXECUTE of genericExecute's statements (the one before RESET). */
function lastButOne(results: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  const all = [results].flat();
  return all[all.length - 2];
}

const STATEMENT_NAME = /^[a-z][a-z0-9_]*$/i;
/**
 * The prefix of the statements PREPARE makes: the driver's own named statements (in transactions) share the
 * connection's names, and must not meet them.
 */
const GENERIC = 'generic_';

/** EXECUTE of a prepared statement on its generic plan, the setting reset after (undone with it if it fails). */
function genericExecute(name: string, literals: string[]): string {
  return `SET plan_cache_mode = force_generic_plan; EXECUTE "${GENERIC}${name}"${literals.length ? `(${literals.join(', ')})` : ''}; RESET plan_cache_mode`;
}

export async function openPostgres(connectionString: string): Promise<Database> {
  const pool = new (driver().Pool)({ connectionString, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  // Fail at start, not at the first request, when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  const listener = new PostgresListener(connectionString);
  const named = await namedPostgresStatements(pool);
  return {
    kind: 'postgres',
    query: async (sql, params, options) => {
      const result = (await named.run(sql, params ?? [], options?.prepareAs)) ?? (await pool.query(toQuery(sql, params, options)));
      if (isWrite(result)) await listener.barrier();
      return { rows: result.rows };
    },
    transaction: async (fn) => {
      const client = await pool.connect();
      let wrote = false;
      // BEGIN goes with the transaction's first statement when that is a named one (one round trip less).
      let begun = false;
      const stale = new Set<string>();
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: async (sql, params, options) => {
            const ran = await named.runIn(client, begun ? '' : 'BEGIN; ', stale, sql, params ?? [], options?.prepareAs);
            let one: pg.QueryResult;
            if (ran) {
              begun ||= ran.begun;
              one = ran.result;
            } else {
              if (!begun) await client.query('BEGIN');
              begun = true;
              one = await client.query(toQuery(sql, params, options));
            }
            wrote ||= isWrite(one);
            return { rows: one.rows };
          },
        });
        if (begun) await client.query('COMMIT');
      } catch (error) {
        // Also when the statement that carried BEGIN failed (the transaction had begun): without one, a warning.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        await named.deallocate(client, stale);
        client.release();
      }
      if (wrote) await listener.barrier();
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
    if (first) await client.query(`LISTEN ${driver().escapeIdentifier(channel)}`);
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
        await this.#client?.query(`UNLISTEN ${driver().escapeIdentifier(channel)}`).catch(() => undefined);
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

  async #selectOne(): Promise<void> {
    try {
      await this.#client?.query('SELECT 1');
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
      const client = new (driver().Client)({ connectionString: this.connectionString, application_name: 'storefront-listen' });
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
