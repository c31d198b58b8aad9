/**
 * The site as a process (node --import tsx site/main.ts, or the built dist/server/main.js) on a PGlite data
 * directory, for the tests of what only a process shows: the lock, kill -9, a clean stop, backups. Every
 * process spawned is stopped by stopSites (call it in afterEach).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { startCommand } from '../../scripts/lib/start-command.ts';
import { freePort } from './server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const STARTUP_TIMEOUT = 60_000;
/** The sources through tsx, as npm run dev runs them. */
export const SOURCE = ['--import', 'tsx', 'site/main.ts'];
/** The built server, as npm start runs it: node's arguments, and the environment it sets (startCommand). */
export const BUILT = startCommand();

export interface SiteProcess {
  child: ChildProcess;
  baseUrl: string;
  /** What it has printed so far, stdout and stderr. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  spawnedAt: number;
}

const running: ChildProcess[] = [];

/**
 * Spawns the site on dataDir (PGlite unless env names a DATABASE_URL, 50 demo contacts, a free port on 127.0.0.1,
 * env besides); resolves as soon
 * as it says it listens or has exited, whichever comes first (a server refused at start exits).
 */
export async function spawnSite(
  dataDir: string,
  env: Record<string, string> = {},
  entry = SOURCE,
): Promise<SiteProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_CONTACTS: '50',
    ...env,
  };
  // PGlite unless the caller names a PostgreSQL server.
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, entry, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal, at: performance.now() })),
  );
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`The server did not start in time:\n${output}`)), STARTUP_TIMEOUT);
    const check = () => {
      if (/Contact Us storefront on http:\/\//.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      ready();
    });
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, output: () => output, exited, spawnedAt };
}

/** Kills every spawned process still running (SIGKILL), once each has exited. */
export async function stopSites(): Promise<void> {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
  }
}
