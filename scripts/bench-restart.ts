/**
 * How long a PGlite server takes to serve again after it was killed with SIGKILL (kill -9): starts the server
 * as `npm start` runs it (dist/server/main.js, built first; --source: from the TypeScript sources with tsx, as
 * `npm run dev` and the tests do) on a demo data directory, waits until it answers, writes a little, kills it with SIGKILL, and
 * again, --runs times (20 by default); prints each restart's time from spawn to the first answer, and the
 * median. The first start, which seeds the demo database when the directory is new, is timed apart.
 *
 *   npm run bench:restart [-- --runs 20 --data-dir .data-bench --keep --source]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from './build-server.ts';
import { startCommand } from './lib/start-command.ts';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    'data-dir': { type: 'string' },
    keep: { type: 'boolean', default: false },
    source: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const dataDir = values['data-dir']
  ? resolve(values['data-dir'])
  : join(mkdtempSync(join(tmpdir(), 'bench-restart-')), 'data');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** How npm start runs the built server: node's arguments and the environment it sets. */
const built = startCommand();

function startServer(port: number): ChildProcess {
  const entry = values.source ? ['--import', 'tsx', 'site/main.ts'] : built.args;
  return spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      ...(values.source ? {} : built.env),
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_ADMIN_PASSWORD: 'bench-admin-password',
      DEMO_USER_PASSWORD: 'bench-user-password',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Milliseconds from now until the server answers a request (the session of a guest: the database is read). */
async function untilServing(port: number, child: ChildProcess, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/services/auth/session`, {
        signal: AbortSignal.timeout(2000),
      });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error('the server did not answer in time');
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGKILL');
  await exited;
}

/** A few writes, so that each run leaves work behind in the write-ahead log as a used server does. */
async function signInOnce(port: number): Promise<void> {
  await fetch(`http://127.0.0.1:${port}/services/auth/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ username: 'admin@northgate.example', password: 'bench-admin-password' }),
  }).then((response) => response.arrayBuffer());
}

if (!values.source) await buildServer();
const fresh = !existsSync(dataDir);
const port = await freePort();
let child = startServer(port);
const first = await untilServing(port, child);
console.log(
  `first start (${fresh ? 'new data directory, seeded' : 'existing data directory'}): ${(first / 1000).toFixed(2)} s  [${dataDir}]`,
);
const times: number[] = [];
try {
  for (let run = 1; run <= runs; run++) {
    await signInOnce(port);
    await killHard(child);
    child = startServer(port);
    const time = await untilServing(port, child);
    times.push(time);
    console.log(`restart ${String(run).padStart(2)} after kill -9: ${(time / 1000).toFixed(2)} s`);
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
  if (!values.keep && !values['data-dir']) rmSync(resolve(dataDir, '..'), { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
const median =
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
console.log(
  `restarts after kill -9 (${values.source ? 'from source, tsx' : 'dist/server/main.js'}): ${times.length}; median ${(median / 1000).toFixed(2)} s, min ${(sorted[0] / 1000).toFixed(2)} s, max ${(sorted[sorted.length - 1] / 1000).toFixed(2)} s`,
);
