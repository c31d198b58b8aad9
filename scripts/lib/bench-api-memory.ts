/** The memory of the production server in npm run bench:api (scripts/bench-api.ts): idle, under the mixed load, after it. */
import { loadavg } from 'node:os';
import type { DatabaseSettings } from '../../server/db/settings.ts';
import { runWrkMix } from './load-generator.ts';
import { memoryLines, residentBytes, sampleResident, startBuiltServer, type BuiltServer } from './server-memory.ts';
import { check, csrfToken, MIX_WARM_SECONDS, mixedRequests, prepare } from './bench-api-shared.ts';

/** How long the production server idles after its start before its RSS is read, and how long after the load. */
const MEMORY_IDLE_SECONDS = 5;
const MEMORY_AFTER_SECONDS = 60;
/** How many times the production server is started for its idle RSS (the median is the figure). */
const IDLE_STARTS = 3;

/**
 * The production server's memory (scripts/lib/server-memory.ts): RSS idle after its start, at its peak under the
 * mixed load (its warm-up and its measured run), and MEMORY_AFTER_SECONDS after the load.
 */
export async function benchMemory(
  database: 'pglite' | 'postgresql',
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  mixed: { seconds: number; connections: number },
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  // The idle RSS varies from one start to the next (on PGlite 256 to 262 MB in five starts, 302 to 326 MB before
  // the server gave malloc's freed memory back: server/malloc-trim.ts). Its median over IDLE_STARTS starts is the
  // figure; the load runs on the last of them.
  const idleResident = async (server: BuiltServer) => {
    await new Promise((done) => setTimeout(done, MEMORY_IDLE_SECONDS * 1000));
    return residentBytes(server.pid);
  };
  const idles: number[] = [];
  for (let start = 1; start < IDLE_STARTS; start++) {
    const earlier = await startBuiltServer(env);
    try {
      idles.push(await idleResident(earlier));
    } finally {
      await earlier.stop();
    }
  }
  const server = await startBuiltServer(env);
  try {
    idles.push(await idleResident(server));
    const requests = mixedRequests(cookie, await csrfToken(server, cookie));
    for (const one of requests) await check(server, one.path, one.headers, one.method, one.body);
    const sampler = sampleResident(server.pid);
    await runWrkMix(server.baseUrl, MIX_WARM_SECONDS + mixed.seconds, mixed.connections, requests);
    const peak = sampler.stop();
    await new Promise((done) => setTimeout(done, MEMORY_AFTER_SECONDS * 1000));
    const after = residentBytes(server.pid);
    const lines = memoryLines(database, { idles, peak, after, afterSeconds: MEMORY_AFTER_SECONDS });
    for (const line of lines) console.log(`  ${line}`);
    return [`memory of dist/server/main.js (load average ${loadavg()[0].toFixed(2)}):`, ...lines];
  } finally {
    await server.stop();
  }
}
