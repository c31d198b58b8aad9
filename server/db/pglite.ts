/**
 * PGlite, the embedded database, run in a worker thread (pglite-worker.ts): this thread's side of it, which
 * offers the worker's database as the Database of connection.ts, by messages.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Database } from './database.ts';
import type { PgliteArtifacts, PgliteMessage, PgliteRequest, PgliteWorkerData, SentError } from './pglite-worker.ts';
/**
 * PGlite in dataDir, or in memory when dataDir is undefined (tests that need no data directory), run in a worker
 * thread (pglite-worker.ts), so that its work never holds up this thread's event loop. An in-memory database may
 * start from image, a data directory's image (PGlite's dumpDataDir): the test suite makes one, migrated and
 * seeded, once per run, and each test server starts from it in about 1 s rather than about 4.5 s.
 */
export async function openPglite(dataDir: string | undefined, image?: Blob): Promise<Database> {
  // Run from source, the worker's module is TypeScript, loaded through tsx; in the built server
  // (dist/server/main.js, where import.meta.url still names this source file) it is pglite-worker.js beside it.
  const built = import.meta.filename.endsWith('.js');
  const data: PgliteWorkerData = {
    ...(await pgliteArtifacts()),
    module: built
      ? pathToFileURL(join(dirname(import.meta.filename), 'pglite-worker.js')).href
      : new URL('./pglite-worker.ts', import.meta.url).href,
    typescript: !built,
    dataDir,
    image,
  };
  const worker = new Worker(WORKER_START, { eval: true, workerData: data });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const notified = new Map<number, (payload: string | null) => void>();
  let nextId = 1;
  let stopped: Error | undefined;
  // The worker keeps the process alive only while a call waits for it, as PGlite in this thread did.
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: PgliteMessage) => {
      if ('ready' in message) return resolve();
      if ('failed' in message) return reject(receivedError(message.failed));
      if ('notification' in message) return notified.get(message.notification)?.(message.payload);
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (pending.size === 0) worker.unref();
      if ('error' in message) call.reject(receivedError(message.error));
      else call.resolve(message.value);
    });
    const stop = (error: Error) => {
      stopped = error;
      reject(error);
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    };
    worker.on('error', (error) => stop(error));
    worker.on('exit', (code) => stop(new Error(`The PGlite worker stopped (exit code ${code})`)));
  });
  worker.ref();
  try {
    await ready;
  } finally {
    worker.unref();
  }
  const call = <T>(request: DistributiveOmit<PgliteRequest, 'id'>): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });
  };
  return {
    kind: 'pglite',
    query: async (sql, params, options) => ({
      rows: await call({ op: 'query', sql, params: params ?? [], ...(options ? { options } : {}) }),
    }),
    // The transaction begins with its first statement and, when that is marked last, commits with it: a
    // transaction of one statement is one message each way.
    transaction: async (fn) => {
      const transaction = nextId++;
      let begun = false;
      let ended = false;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: async (sql, params, options) => {
            if (ended) throw new Error('The transaction has committed with its last statement: it takes no more');
            const begin = !begun;
            begun = true;
            const last = options?.last === true;
            ended ||= last;
            const rows = await call<never[]>({
              op: 'transactionQuery',
              transaction,
              begin,
              last,
              sql,
              params: params ?? [],
              ...(options ? { options } : {}),
            });
            return { rows };
          },
        });
      } catch (error) {
        if (begun && !ended) await call({ op: 'end', transaction, commit: false }).catch(() => undefined);
        throw error;
      }
      if (begun && !ended) await call({ op: 'end', transaction, commit: true });
      return result;
    },
    exec: async (sql) => {
      await call({ op: 'exec', sql });
    },
    listen: async (channel, onNotify) => {
      // Registered before the worker listens: a notification may follow its answer at once.
      const id = nextId;
      notified.set(id, onNotify);
      try {
        await call({ op: 'listen', channel });
      } catch (error) {
        notified.delete(id);
        throw error;
      }
      return {
        live: true,
        unlisten: async () => {
          notified.delete(id);
          await call({ op: 'unlisten', listener: id });
        },
      };
    },
    close: async () => {
      try {
        await call({ op: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}

/**
 * PGlite's WebAssembly, compiled once per process and handed to each worker (a compiled module crosses threads
 * without being compiled again), and its file-system bundle. Left to itself, each worker would read and compile
 * the engine anew, as PGlite caches a compiled module only within its thread: every database opened after the
 * first (a test server, a backup's second database) would pay that again.
 */
let artifacts: Promise<PgliteArtifacts> | undefined;
function pgliteArtifacts(): Promise<PgliteArtifacts> {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasmModule, initdbWasmModule, bundle] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')).then((bytes) => WebAssembly.compile(bytes)),
      readFile(join(dist, 'initdb.wasm')).then((bytes) => WebAssembly.compile(bytes)),
      readFile(join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle]) };
  })();
  return artifacts;
}

/** The worker's first code: tsx when the module is TypeScript, then the module (eval'd code is CommonJS). */
const WORKER_START = `
const { workerData } = require('node:worker_threads');
(workerData.typescript ? import('tsx/esm/api').then(({ register }) => register()) : Promise.resolve())
  .then(() => import(workerData.module));
`;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The error the worker sent, as the error this thread's callers read (message, code, detail, …). */
function receivedError({ message, name, fields }: SentError): Error {
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}
