/** Contention in npm run bench:api (scripts/bench-api.ts): many connections update one record while a page is read. */
import { loadavg } from 'node:os';
import { CSRF_HEADER, UI_API_PATH as UI_API } from '../../common/platform.ts';
import type { DatabaseSettings } from '../../server/db/settings.ts';
import { runFor, sliceTotals, waitForLoad, type BenchTarget, type MeasureOptions } from './bench-server.ts';
import { runWrkMix, type MixedRequest, type Slice } from './load-generator.ts';
import { ACCOUNTS, BROWSER, check, csrfToken, prepare, startSite, warmUp } from './bench-api-shared.ts';

/** Contention: so many connections update one record for so long; the targets on PGlite. */
const CONTENTION_CONNECTIONS = 64;
const CONTENTION_SECONDS = 10;
const CONTENTION_TARGET = { updateP99: 100, pageP99: 20 };

/**
 * CONTENTION_CONNECTIONS connections update one record for CONTENTION_SECONDS while `/` is measured beside them;
 * then `/` alone for as long, for comparison.
 */
export async function benchContention(
  database: 'pglite' | 'postgresql',
  settings: DatabaseSettings,
  env: NodeJS.ProcessEnv,
  options: MeasureOptions,
): Promise<string[]> {
  const { cookie } = await prepare(settings);
  const server = await startSite(env);
  try {
    const csrf = await csrfToken(server, cookie);
    const update: MixedRequest = {
      weight: 1,
      method: 'PATCH',
      path: `${UI_API}/records/${ACCOUNTS[1]}`,
      headers: { ...BROWSER, cookie, [CSRF_HEADER]: csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ fields: { Description: 'Updated by the contention of npm run bench:api' } }),
    };
    const page: BenchTarget = { name: 'page /', path: '/', headers: BROWSER };
    await check(server, update.path, update.headers, update.method, update.body);
    await warmUp(server, [page], options);
    await runWrkMix(server.baseUrl, 3, CONTENTION_CONNECTIONS, [update]);
    await waitForLoad(options);
    const load = loadavg()[0].toFixed(2);
    const [updates, during] = await Promise.all([
      runWrkMix(server.baseUrl, CONTENTION_SECONDS, CONTENTION_CONNECTIONS, [update]),
      runFor(options, server.baseUrl + page.path, CONTENTION_SECONDS, page.headers),
    ]);
    const alone = await runFor(options, server.baseUrl + page.path, CONTENTION_SECONDS, page.headers);
    const [u, d, a] = [updates, during, alone].map((slice) => sliceTotals([slice]));
    const failed = (slice: Slice) => (slice.errors ? `, ${slice.errors} errors or timeouts` : '');
    const updatesMet = u.p99 <= CONTENTION_TARGET.updateP99 && u.failed === 0;
    const pageMet = d.p99 <= CONTENTION_TARGET.pageP99 && d.failed === 0;
    const verdict = (met: boolean) => (database === 'pglite' ? (met ? 'met' : 'missed') : 'PGlite only');
    const lines = [
      `contention (load average ${load}): ${CONTENTION_CONNECTIONS} connections updating one record for ${CONTENTION_SECONDS} s, page / at ${options.connections} beside them`,
      `  updates:          ${u.rps.toFixed(0).padStart(7)} req/s, p99 ${u.p99.toFixed(1).padStart(7)} ms${failed(updates)} (${u.failed} failed)  target p99 ≤ ${CONTENTION_TARGET.updateP99} ms, none failed: ${verdict(updatesMet)}`,
      `  page / beside:    ${d.rps.toFixed(0).padStart(7)} req/s, p99 ${d.p99.toFixed(1).padStart(7)} ms${failed(during)}  target p99 ≤ ${CONTENTION_TARGET.pageP99} ms: ${verdict(pageMet)}`,
      `  page / alone:     ${a.rps.toFixed(0).padStart(7)} req/s, p99 ${a.p99.toFixed(1).padStart(7)} ms`,
    ];
    for (const line of lines) console.log(`  ${line}`);
    return lines;
  } finally {
    await server.stop();
  }
}
