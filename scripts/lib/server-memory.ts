/**
 * The production server's memory, as npm run bench:api reports it: the resident set size (RSS) of
 * `dist/server/main.js` — the process npm start runs, without the TypeScript loader the other measurements'
 * servers carry — idle after its start, at its peak under a load, and a while after the load.
 *
 * RSS is read from /proc/<pid>/status (Linux): what the process holds in memory, its heap, its code and, on
 * PGlite, the database engine's WebAssembly memory.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { ascending, percentile } from './percentile.ts';
import { ROOT, startCommand } from './start-command.ts';

const MIB = 1024 * 1024;

/** A size of /proc/<pid>/status in bytes: VmRSS, the resident set size, or VmHWM, its peak so far. */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
  if (kib === undefined) throw new Error(`No ${field} in /proc/${pid}/status`);
  return Number(kib) * 1024;
}

/** A process's resident set size in bytes, from /proc/<pid>/status. */
export function residentBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/** The largest resident set size a process has had, in bytes (its high-water mark, from /proc/<pid>/status). */
export function peakResidentBytes(pid: number): number {
  return statusBytes(pid, 'VmHWM');
}

/** Samples a process's RSS every intervalMs until stopped; stop() gives the largest seen. */
export function sampleResident(pid: number, intervalMs = 200): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

export interface BuiltServer {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * dist/server/main.js (npm run build first) on 127.0.0.1 with env's database, as npm start runs it (startCommand), with the
 * limits that count one client address off (the load comes from one). Resolves once `/` answers 200: the start
 * is over.
 */
export async function startBuiltServer(env: NodeJS.ProcessEnv): Promise<BuiltServer> {
  const port = await freePort();
  const { env: startEnv, args } = startCommand();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...startEnv,
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_REQUESTS_PER_MINUTE: '0',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dist/server/main.js exited (${child.exitCode}) before serving /`);
    const ok = await fetch(`${baseUrl}/`).then(
      async (response) => (await response.arrayBuffer(), response.status === 200),
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error('dist/server/main.js did not serve / within 300 s');
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  return { baseUrl, pid: child.pid!, stop };
}

export interface MemoryFigures {
  /** The idle RSS of each start (one or more): their median is the figure, printed with their range. */
  idles: number[];
  peak: number;
  after: number;
  afterSeconds: number;
}

/** The targets of the figures: idle RSS by database, growth under the load, and the way back after it. */
export const MEMORY_TARGETS = {
  idleMiB: { pglite: 250, postgresql: 150 } as Record<string, number>,
  growth: 0.3,
  back: 0.1,
};

/**
 * The figures' lines, each with its target met or missed: idle RSS (the median of the starts'), peak under the
 * load (growth over idle), and RSS afterSeconds after the load (over idle).
 */
export function memoryLines(database: 'pglite' | 'postgresql', figures: MemoryFigures): string[] {
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MB`;
  const idleTarget = MEMORY_TARGETS.idleMiB[database];
  const { idles } = figures;
  const idle = percentile(ascending(idles), 0.5);
  const several = idles.length > 1;
  const growth = figures.peak / idle - 1;
  const back = figures.after / idle - 1;
  const verdict = (met: boolean) => (met ? 'met' : 'missed');
  // In whole percent of idle, so that a figure at its bound is not missed by a rounding of the share.
  const within = (bytes: number, share: number) => bytes * 100 <= idle * Math.round(100 + share * 100);
  const percent = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(0)} %`;
  const idleName = several ? `RSS idle after start, median of ${idles.length}` : 'RSS idle after start';
  const range = several ? `${mib(Math.min(...idles))} to ${mib(Math.max(...idles))}; ` : '';
  return [
    `${idleName.padEnd(36)} ${mib(idle).padStart(7)}  ${range}target ≤ ${idleTarget} MB: ${verdict(idle <= idleTarget * MIB)}`,
    `${'RSS peak under the mixed load'.padEnd(36)} ${mib(figures.peak).padStart(7)}  ${percent(growth)} of idle; target ≤ +${MEMORY_TARGETS.growth * 100} %: ${verdict(within(figures.peak, MEMORY_TARGETS.growth))}`,
    `${`RSS ${figures.afterSeconds} s after the load`.padEnd(36)} ${mib(figures.after).padStart(7)}  ${percent(back)} of idle; target ≤ +${MEMORY_TARGETS.back * 100} %: ${verdict(within(figures.after, MEMORY_TARGETS.back))}`,
  ];
}
