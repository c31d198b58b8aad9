/**
 * The load generators of the benchmarks: wrk when it is installed (Debian: apt-get install wrk), else
 * autocannon. Either runs against a URL for some seconds and reports its counts and every latency, so that
 * runs in slices merge into exact percentiles.
 */
import { execFile, spawnSync } from 'node:child_process';
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
  return client === 'wrk' ? runWrk(url, seconds, connections, all, request) : runAutocannon(url, seconds, connections, all, request);
}

async function runWrk(url: string, seconds: number, connections: number, headers: Record<string, string>, request?: LoadRequest): Promise<Slice> {
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
      { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, WRK_METHOD: request?.method ?? '', WRK_BODY: request?.body ?? '' } },
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
async function runAutocannon(url: string, seconds: number, connections: number, headers: Record<string, string>, request?: LoadRequest): Promise<Slice> {
  const latencies: number[] = [];
  const instance = autocannon({ url, connections, duration: seconds, headers, ...(request ? { method: request.method, body: request.body } : {}) });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode === 200) latencies.push(responseTime);
  });
  const result = await instance;
  return { requests: result.requests.total, seconds, non2xx: result.non2xx, errors: result.errors, latencies };
}
