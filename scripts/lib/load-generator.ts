/**
 * The load generators of the benchmarks: wrk when it is installed (Debian: apt-get install wrk), else
 * autocannon. Either runs against a URL for some seconds and reports its counts and every latency, so that
 * runs in slices merge into exact percentiles.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export type LoadClient = 'wrk' | 'autocannon';

/** One run: its counts, and its latencies in ms with sub-millisecond precision. */
export interface Slice {
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  latencies: number[];
}

/** wrk's report of a run: its counts and whole latency histogram. */
const WRK_REPORT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

/** A request other than a GET: its method and JSON body. */
export interface LoadRequest {
  method: 'POST';
  body: string;
}

export const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

export function runLoad(
  client: LoadClient,
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string> = {},
  request?: LoadRequest,
): Promise<Slice> {
  const all = request ? { ...headers, 'Content-Type': 'application/json' } : headers;
  return client === 'wrk'
    ? runWrk(url, seconds, connections, all, request)
    : runAutocannon(url, seconds, connections, all, request);
}

/** One request of a mixed load: what wrk sends, and how many times in the mix (its weight). */
export interface MixedRequest {
  weight: number;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * A mixed load with wrk: each request picks one of `mix` at random, in proportion to its weight. The mix
 * travels to wrk's script as a file of tab-separated lines (method, path, headers, body).
 */
export async function runWrkMix(
  baseUrl: string,
  seconds: number,
  connections: number,
  mix: MixedRequest[],
): Promise<Slice> {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-mix-')), 'mix.tsv');
  const lines: string[] = [];
  for (const one of mix) {
    const headers = Object.entries(one.headers).map(([name, value]) => {
      // The script splits headers at '|' and a header at its first ':'.
      if (/[|:\t\n]/.test(name) || /[|\t\n]/.test(value))
        throw new Error(`A header of the mix holds a separator: ${name}`);
      return `${name}:${value}`;
    });
    for (let i = 0; i < one.weight; i++)
      lines.push([one.method, one.path, headers.join('|'), one.body ?? ''].join('\t'));
  }
  writeFileSync(file, lines.join('\n') + '\n');
  try {
    return await runWrk(baseUrl + '/', seconds, connections, {}, undefined, { WRK_MIX: file });
  } finally {
    rmSync(dirname(file), { recursive: true, force: true });
  }
}

async function runWrk(
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string>,
  request?: LoadRequest,
  env: Record<string, string> = {},
): Promise<Slice> {
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '-s',
    WRK_REPORT,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    url,
  ];
  const stdout = await new Promise<string>((resolve, reject) =>
    // The report script sends the method and body it finds in WRK_METHOD and WRK_BODY.
    execFile(
      'wrk',
      args,
      {
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, WRK_METHOD: request?.method ?? '', WRK_BODY: request?.body ?? '', ...env },
      },
      (error, out) => (error ? reject(error) : resolve(out)),
    ),
  );
  const report = /^bench-report (\d+) (\d+) (\d+)$/m.exec(stdout);
  if (!report) throw new Error(`wrk printed no report:\n${stdout}`);
  const latencies: number[] = [];
  for (const [, value, count] of stdout.matchAll(/^bench-latency (\d+) (\d+)$/gm)) {
    for (let i = 0; i < Number(count); i++) latencies.push(Number(value) / 1000);
  }
  return { requests: Number(report[1]), seconds, non2xx: Number(report[2]), errors: Number(report[3]), latencies };
}

/** One autocannon run; latencies kept with sub-millisecond precision (its own histogram keeps whole ms). */
async function runAutocannon(
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string>,
  request?: LoadRequest,
): Promise<Slice> {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections,
    duration: seconds,
    headers,
    ...(request ? { method: request.method, body: request.body } : {}),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode === 200) latencies.push(responseTime);
  });
  const result = await instance;
  return { requests: result.requests.total, seconds, non2xx: result.non2xx, errors: result.errors, latencies };
}
