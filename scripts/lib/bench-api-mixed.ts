/**
 * The mixed load of npm run bench:api (scripts/bench-api.ts) taken apart: what its writes cost, themselves and in
 * the reads they send back to the database (`--mixed-only`).
 *
 * The mix writes the Account whose record and record UI it also reads (mixedRequests), so each write evicts
 * those answers and the next reads of them are made anew. Beside the bare endpoint of the same server, it
 * measures the mix as sent, the mix with its writes sent to a record it does not read (a Contact: the writes
 * cost the same, and evict nothing the mix reads), and the mix without its writes. Each row with writes says how
 * many were answered a second and the app's time for them (their p50 and p99): the writes of one record take
 * their turns one after another, so that a write waits for those sent before it.
 */
import { loadavg } from 'node:os';
import { makeId } from '../../server/platform/core/ids.ts';
import {
  measure,
  serverStats,
  sliceTotals,
  TRIVIAL_PATH,
  waitForLoad,
  writeTimes,
  type MeasureOptions,
} from './bench-server.ts';
import { ascending, percentile } from './percentile.ts';
import { runWrkMix, type MixedRequest } from './load-generator.ts';
import { BROWSER, check, csrfToken, mixedRequests, prepare, startSite } from './bench-api-shared.ts';
import type { DatabaseSettings } from '../../server/db/settings.ts';

/** Each variant is warmed up so long at its connections before it is measured. */
const VARIANT_WARM_SECONDS = 5;
/** A record of the demo data that no request of the mix reads: the first Contact. */
const UNREAD_RECORD = makeId('003', 1);

/** The mixed load as sent, with its writes sent to a record it does not read, and without its writes. */
export function mixedVariants(requests: MixedRequest[]): { name: string; requests: MixedRequest[] }[] {
  const writes = requests.filter((one) => one.method !== 'GET');
  if (writes.length === 0) throw new Error('The mixed load sends no write');
  return [
    { name: 'mixed load as sent', requests },
    {
      name: 'its writes to a record it does not read',
      requests: requests.map((one) =>
        one.method === 'GET'
          ? one
          : { ...one, path: one.path.replace(/\/records\/[^/?]+/, `/records/${UNREAD_RECORD}`) },
      ),
    },
    { name: 'without its writes', requests: requests.filter((one) => one.method === 'GET') },
  ];
}

export async function benchMixedParts(
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
  mixed: { seconds: number; connections: number },
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  const server = await startSite(env);
  try {
    const variants = mixedVariants(mixedRequests(cookie, await csrfToken(server, cookie)));
    for (const { requests } of variants)
      for (const one of requests) await check(server, one.path, one.headers, one.method, one.body);
    await waitForLoad(options);
    const lines = [`the mixed load taken apart (load average ${loadavg()[0].toFixed(2)}):`];
    const [bare] = await measure(
      server.baseUrl,
      [{ name: 'bare trivial endpoint', path: TRIVIAL_PATH, headers: BROWSER }],
      options,
    );
    lines.push(
      `${'measurement'.padEnd(40)}   req/s   p50 ms   p99 ms  server CPU/req  / bare  writes/s  write p50  write p99`,
      `${'bare trivial endpoint'.padEnd(40)} ${bare.rps.toFixed(0).padStart(7)} ${bare.p50.toFixed(2).padStart(8)} ${bare.p99.toFixed(2).padStart(8)} ${`${bare.cpuPerRequest.toFixed(0)} µs`.padStart(15)}   100 %`,
    );
    for (const { name, requests } of variants) {
      await runWrkMix(server.baseUrl, VARIANT_WARM_SECONDS, mixed.connections, requests);
      await writeTimes(server.baseUrl);
      const before = (await serverStats(server.baseUrl)).cpuMicros;
      const slice = await runWrkMix(server.baseUrl, mixed.seconds, mixed.connections, requests);
      const cpu = (await serverStats(server.baseUrl)).cpuMicros - before;
      const writes = await writeTimes(server.baseUrl);
      const { requests: sent, rps, p50, p99, failed } = sliceTotals([slice]);
      const line =
        `${name.padEnd(40)} ${rps.toFixed(0).padStart(7)} ${p50.toFixed(2).padStart(8)} ` +
        `${p99.toFixed(2).padStart(8)} ${`${(cpu / sent).toFixed(0)} µs`.padStart(15)} ` +
        `${`${((rps / bare.rps) * 100).toFixed(0)} %`.padStart(7)}${writeColumns(writes, slice.seconds)}` +
        (failed ? `  ${failed} failed` : '');
      console.log(`  ${line}`);
      lines.push(line);
    }
    return lines;
  } finally {
    await server.stop();
  }
}

/** The columns of a variant's writes, from the app's times for them (ms): writes a second, p50, p99; none without writes. */
function writeColumns(times: number[], seconds: number): string {
  if (times.length === 0) return '';
  const sorted = ascending(times);
  const perSecond = (times.length / seconds).toFixed(0).padStart(9);
  return ` ${perSecond} ${percentile(sorted, 0.5).toFixed(2).padStart(10)} ${percentile(sorted, 0.99).toFixed(2).padStart(10)}`;
}
