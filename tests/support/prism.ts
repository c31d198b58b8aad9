/**
 * Prism (pinned @stoplight/prism-cli) started for a test: the mock of the contract, as `npm run mock` runs it, or
 * the validating proxy in front of a server, as `npm run proxy` runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { CONTRACT_PATH } from './contract.ts';
import { freePort } from './server.ts';

const root = resolve(import.meta.dirname, '../..');
const PRISM = resolve(root, 'node_modules/.bin/prism');
export const STARTUP_TIMEOUT_MS = 90_000;

function accepts(port: number): Promise<boolean> {
  return new Promise((resolveAccepts) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveAccepts(true);
    });
    socket.once('error', () => resolveAccepts(false));
  });
}

type StartedPrism = { child: ChildProcess; output: () => string; baseUrl: string };

/**
 * Starts Prism's mock of the bundle on a free port and waits until it listens; rejects with its output if it
 * exits or hangs.
 */
export function startPrism(): Promise<StartedPrism> {
  return startPrismWith((port) => ['mock', CONTRACT_PATH, '--host', '127.0.0.1', '--port', String(port)]);
}

/**
 * Starts Prism's validating proxy of the bundle in front of upstream (http://127.0.0.1:<port>), with the options
 * of `npm run proxy`: a request or an answer that leaves the contract is answered by Prism's own error.
 */
export function startPrismProxy(upstream: string): Promise<StartedPrism> {
  return startPrismWith((port) => [
    'proxy',
    CONTRACT_PATH,
    upstream,
    '--errors',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
  ]);
}

async function startPrismWith(args: (port: number) => string[]): Promise<StartedPrism> {
  const port = await freePort();
  const child = spawn(PRISM, args(port), {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`Prism exited (${child.exitCode ?? child.signalCode}) before listening:\n${output.slice(-3000)}`);
    if (/Prism is listening/.test(output) && (await accepts(port)))
      return { child, output: () => output, baseUrl: `http://127.0.0.1:${port}` };
    await new Promise((wait) => setTimeout(wait, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`Prism did not listen on port ${port} within ${STARTUP_TIMEOUT_MS} ms:\n${output.slice(-3000)}`);
}

export function stopPrism(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolveStop();
    });
    child.kill('SIGTERM');
  });
}
