/** The write storm of npm run bench:api (scripts/bench-api.ts): guests' reads measured while representatives are updated. */
import { loadavg } from 'node:os';
import { CSRF_HEADER, UI_API_PATH as UI_API } from '../../common/platform.ts';
import type { DatabaseSettings } from '../../server/db/settings.ts';
import { BRANDS } from '../../server/storefront/demo-contacts.ts';
import {
  runFor,
  sliceTotals,
  waitForLoad,
  type BenchTarget,
  type MeasureOptions,
  type Server,
} from './bench-server.ts';
import type { Slice } from './load-generator.ts';
import { BROWSER, csrfToken, locatorPath, prepare, startSite, STORM_STATE, warmUp } from './bench-api-shared.ts';

/** Updates a second of the storm's writer; 0 is the quiet measurement beside them. */
const STORM_RATES = [0, 1, 10];
/** At 10 updates a second, the page and the locator keep at least 70 % of their quiet req/s, with p99 ≤ 20 ms. */
const STORM_TARGET = { share: 0.7, p99: 20 };

/** A writer of the storm: updates the representatives' phones, one after another, at `rate` a second (0: none). */
class StormWriter {
  rate = 0;
  updates = 0;
  failed = 0;
  #stopped = false;
  #done: Promise<void>;

  constructor(server: Server, ids: string[], headers: Record<string, string>) {
    this.#done = this.#run(server, ids, headers);
  }

  async #run(server: Server, ids: string[], headers: Record<string, string>): Promise<void> {
    let next = Date.now();
    while (!this.#stopped) {
      if (this.rate === 0) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        next = Date.now();
        continue;
      }
      next += 1000 / this.rate;
      const id = ids[this.updates % ids.length];
      const phone = `512-555-${String(this.updates % 10_000).padStart(4, '0')}`;
      try {
        const response = await fetch(`${server.baseUrl}${UI_API}/records/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ fields: { APT_Phone__c: phone } }),
        });
        await response.text();
        if (response.ok) this.updates++;
        else this.failed++;
      } catch {
        this.failed++;
      }
      const wait = next - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      else next = Date.now();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#done;
  }
}

/**
 * The write storm: the guest page `/`, STORM_STATE's locator page and getContacts for it, each measured in
 * one-second slices without writes and under the writer at each of STORM_RATES, alternating, so that all meet
 * the same background load. Returns the report's lines.
 */
export async function benchStorm(
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
): Promise<string[]> {
  const { cookie, stormIds } = await prepare(settings);
  if (stormIds.length === 0) throw new Error(`No representative of ${STORM_STATE.state} to update`);
  const { country, state } = STORM_STATE;
  const targets: BenchTarget[] = [
    { name: 'page /', path: '/', headers: BROWSER },
    {
      name: `locator page (${state})`,
      path: `/?${new URLSearchParams({ country, state })}`,
      headers: BROWSER,
    },
    { name: `getContacts (${state})`, path: locatorPath(country, state, BRANDS[0]), headers: BROWSER },
  ];
  const server = await startSite(env);
  const lines: string[] = [];
  try {
    const csrf = await csrfToken(server, cookie);
    const writeHeaders = { ...BROWSER, cookie, [CSRF_HEADER]: csrf, 'content-type': 'application/json' };
    const writer = new StormWriter(server, stormIds, writeHeaders);
    try {
      await warmUp(server, targets, options);
      // The writer's path is warmed up too: its first updates are slower.
      writer.rate = 10;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      writer.rate = 0;
      await waitForLoad(options);
      lines.push(`load average before the write storm: ${loadavg()[0].toFixed(2)}`);
      console.log(
        `\nWrite storm: ${stormIds.length} representatives of ${state} updated at ${STORM_RATES.join(', ')} a second; load average ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
      );
      const slices = targets.map(() => STORM_RATES.map((): Slice[] => []));
      const updatesBefore = writer.updates;
      for (let round = 0; round < options.duration; round++) {
        for (const [rateIndex, rate] of STORM_RATES.entries()) {
          writer.rate = rate;
          for (const [index, target] of targets.entries()) {
            slices[index][rateIndex].push(await runFor(options, server.baseUrl + target.path, 1, target.headers));
          }
        }
      }
      writer.rate = 0;
      const updates = writer.updates - updatesBefore;
      lines.push(
        `write storm on ${state}: ${updates} updates, ${writer.failed} failed; share = req/s under writes / req/s quiet`,
        `${'storm measurement'.padEnd(24)} ${STORM_RATES.map((rate) => `${rate ? `${rate}/s` : 'quiet'} req/s   p99 ms`.padStart(20)).join('')}  share 1/s  share 10/s  target at 10/s`,
      );
      for (const [index, target] of targets.entries()) {
        const figures = slices[index].map((ofRate) => sliceTotals(ofRate));
        const quiet = figures[0].rps;
        const shares = figures.map((figure) => figure.rps / quiet);
        const last = figures.length - 1;
        const met =
          shares[last] >= STORM_TARGET.share &&
          figures[last].p99 <= STORM_TARGET.p99 &&
          figures.every((f) => f.failed === 0);
        const failed = figures.reduce((sum, figure) => sum + figure.failed, 0);
        lines.push(
          `${target.name.padEnd(24)} ${figures.map((f) => `${f.rps.toFixed(0).padStart(11)} ${f.p99.toFixed(2).padStart(8)}`).join('')}  ${`${(shares[1] * 100).toFixed(0)} %`.padStart(9)}  ${`${(shares[last] * 100).toFixed(0)} %`.padStart(10)}  ` +
            `≥ ${STORM_TARGET.share * 100} %, p99 ≤ ${STORM_TARGET.p99} ms: ${met ? 'met' : 'missed'}${failed ? ` (${failed} failed)` : ''}`,
        );
        console.log(`  ${lines.at(-1)}`);
      }
    } finally {
      await writer.stop();
    }
  } finally {
    await server.stop();
  }
  return lines;
}
