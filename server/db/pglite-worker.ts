/**
 * PGlite in a worker thread: the engine, started here, answers the messages of openPglite (pglite.ts) in the
 * server's thread. PGlite is PostgreSQL compiled to WebAssembly, and a statement, once started, runs to its end
 * without yielding: in the server's own thread every slow query held up every other request of the process. Here
 * it holds up only the queries that wait for the database.
 *
 * The messages: each request carries an id, answered by one reply with that id (a value or an error); a
 * notification (LISTEN) is sent as soon as the engine has it, which is before the reply of the write that caused
 * it, so the server's thread hears it before that write returns, as it did with PGlite in its own thread.
 */
import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Database, QueryOptions, Queryable } from './database.ts';
import { namedStatementsOf, preparedSession, type WithSession } from './named-statements.ts';
import { PGLITE_EXTENSIONS } from './pglite-extensions.ts';

/** PGlite's engine, compiled, and its file-system bundle: what each worker would otherwise read and compile. */
export interface PgliteArtifacts {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

/** What the worker starts with. */
export interface PgliteWorkerData extends PgliteArtifacts {
  /** This module, which the worker imports. */
  module: string;
  /** Whether this module is TypeScript, run from source (it is then loaded through tsx). */
  typescript: boolean;
  dataDir: string | undefined;
  image: Blob | undefined;
}

export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; options?: QueryOptions }
  | {
      id: number;
      op: 'transactionQuery';
      /** The transaction, named by the server's thread. */
      transaction: number;
      /** The transaction's first statement: it begins the transaction (one message less). */
      begin: boolean;
      /** Its last statement (QueryOptions.last): the transaction commits with it (one message less). */
      last: boolean;
      sql: string;
      params: unknown[];
      options?: QueryOptions;
    }
  | { id: number; op: 'end'; transaction: number; commit: boolean }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'listen'; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' };

/** An error as it crosses the threads: its message, name and the fields PostgreSQL gave it (code, detail, …). */
export interface SentError {
  message: string;
  name: string;
  fields: Record<string, string | number | boolean | null>;
}

export type PgliteMessage =
  | { ready: true }
  | { failed: SentError }
  | { id: number; value: unknown }
  | { id: number; error: SentError }
  | { notification: number; payload: string | null };

/**
 * PGlite's shared buffers. The engine zeroes its whole shared memory at every start, in WebAssembly, before
 * it answers anything: at PostgreSQL's default of 128 MB that was a third of PGlite's start-up time, the
 * largest part of a restart after kill -9 (`npm run bench:restart`). Each megabyte is resident too: 8 MB rather
 * than 32 MB keeps the server's idle memory about 30 MB lower, and its peak under load about 100 MB lower (npm run
 * bench:api), for reads within a few per cent; pages beyond the buffers come from the operating system's file
 * cache.
 */
const PGLITE_SHARED_BUFFERS = '8MB';

/**
 * PGlite in dataDir, or in memory when dataDir is undefined (tests that need no data directory), in this thread.
 * An in-memory database may start from image, a data directory's image (PGlite's dumpDataDir): the test suite
 * makes one, migrated and seeded, once per run, and each test server starts from it in about 1 s rather than
 * about 4.5 s.
 */
async function startPglite(
  artifacts: PgliteArtifacts,
  dataDir: string | undefined,
  image: Blob | undefined,
): Promise<Database> {
  const db = await PGlite.create(dataDir, {
    ...artifacts,
    ...(image && dataDir === undefined ? { loadDataDir: image } : {}),
    extensions: PGLITE_EXTENSIONS,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const named = await namedStatementsOf((sql) => db.query(sql));
  // PGlite is one session: what it prepared serves every query.
  const session = preparedSession();
  const run = (sql: string) => db.exec(sql);
  const withSession: WithSession<Results> = (use) => use(session, run);
  const queryIn = (tx: Transaction): Queryable => ({
    query: async (sql, params, options) => {
      // PGlite's transaction has begun already.
      const ran = await named.runIn(
        session,
        (statements) => tx.exec(statements),
        '',
        sql,
        params ?? [],
        options?.prepareAs,
      );
      return { rows: (ran?.result ?? (await tx.query(sql, params))).rows as never[] };
    },
  });
  return {
    kind: 'pglite',
    // A query's Row type is the caller's statement of what its SQL selects; the driver cannot know it.
    query: async (sql, params, options) => ({
      rows: ((await named.run(withSession, sql, params ?? [], options?.prepareAs)) ?? (await db.query(sql, params)))
        .rows as never[],
    }),
    transaction: async (fn) => {
      try {
        return await db.transaction((tx) => fn(queryIn(tx)));
      } finally {
        await named.deallocateStale(session, run);
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

function sendableError(error: unknown): SentError {
  if (!(error instanceof Error)) return { message: String(error), name: 'Error', fields: {} };
  const fields: SentError['fields'] = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[name] = value as never;
  }
  return { message: error.message, name: error.name, fields };
}

/** A transaction the server's thread has begun: its statements run on it until it says how it ends. */
interface OpenTransaction {
  queryable: Queryable;
  end(commit: boolean): void;
  /** Settles once the transaction has ended. */
  ended: Promise<unknown>;
}

/** Thrown into a transaction's function to roll it back. */
const ROLL_BACK = Symbol('roll back');

function serve(port: MessagePort, db: Database) {
  /** Each transaction under way, once it has begun (its statements wait for that). */
  const transactions = new Map<number, Promise<OpenTransaction>>();
  const listeners = new Map<number, () => Promise<void>>();

  const begin = () =>
    new Promise<OpenTransaction>((resolve, reject) => {
      const open = {} as OpenTransaction;
      open.ended = db.transaction(
        (queryable) =>
          new Promise<void>((commit, rollBack) => {
            open.queryable = queryable;
            open.end = (committed) => (committed ? commit() : rollBack(ROLL_BACK));
            resolve(open);
          }),
      );
      // A transaction that could not begin fails its first statement.
      open.ended.catch((error: unknown) => {
        if (!open.queryable) reject(error);
      });
    });

  const finish = async (transaction: number, commit: boolean) => {
    const open = await transactions.get(transaction);
    if (!open) throw new Error('The transaction has ended');
    transactions.delete(transaction);
    open.end(commit);
    try {
      await open.ended;
    } catch (error) {
      if (error !== ROLL_BACK) throw error;
    }
  };

  const handle = async (request: PgliteRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return (await db.query(request.sql, request.params, request.options)).rows;
      case 'transactionQuery': {
        // A transaction of one statement is that statement alone, which commits as it ends: PGlite's own
        // transaction would call the engine once more for its BEGIN and once more for its COMMIT. As any query
        // outside a transaction, a named statement whose EXECUTE fails is run again the ordinary way (its first
        // run was rolled back with its failure).
        if (request.begin && request.last) return (await db.query(request.sql, request.params, request.options)).rows;
        if (request.begin) transactions.set(request.transaction, begin());
        const open = await transactions.get(request.transaction);
        if (!open) throw new Error('The transaction has ended');
        let rows: unknown[];
        try {
          ({ rows } = await open.queryable.query(request.sql, request.params, request.options));
        } catch (error) {
          if (request.last) await finish(request.transaction, false).catch(() => undefined);
          throw error;
        }
        if (request.last) await finish(request.transaction, true);
        return rows;
      }
      case 'end':
        await finish(request.transaction, request.commit);
        return null;
      case 'exec':
        await db.exec(request.sql);
        return null;
      case 'listen': {
        const listening = await db.listen(request.channel, (payload) =>
          port.postMessage({ notification: request.id, payload } satisfies PgliteMessage),
        );
        listeners.set(request.id, () => listening.unlisten());
        return request.id;
      }
      case 'unlisten':
        await listeners.get(request.listener)?.();
        listeners.delete(request.listener);
        return null;
      case 'close':
        await db.close();
        return null;
      default:
        throw new Error('Unknown request');
    }
  };

  port.on('message', (request: PgliteRequest) => {
    handle(request).then(
      (value) => port.postMessage({ id: request.id, value } satisfies PgliteMessage),
      (error: unknown) => port.postMessage({ id: request.id, error: sendableError(error) } satisfies PgliteMessage),
    );
  });
}

if (!isMainThread && parentPort && (workerData as PgliteWorkerData | undefined)?.module) {
  const { dataDir, image, pgliteWasmModule, initdbWasmModule, fsBundle } = workerData as PgliteWorkerData;
  const port = parentPort;
  try {
    serve(port, await startPglite({ pgliteWasmModule, initdbWasmModule, fsBundle }, dataDir, image));
    port.postMessage({ ready: true } satisfies PgliteMessage);
  } catch (error) {
    port.postMessage({ failed: sendableError(error) } satisfies PgliteMessage);
  }
}
