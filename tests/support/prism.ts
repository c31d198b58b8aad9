/** The Prism mock of the contract (pinned @stoplight/prism-cli, as `npm run mock` runs it), started for a test. */
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

/**
 * Starts Prism on the bundle on a free port and waits until it listens; rejects with its output if it exits or
 * hangs.
 */
export async function startPrism(): Promise<{ child: ChildProcess; output: () => string; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(PRISM, ['mock', CONTRACT_PATH, '--host', '127.0.0.1', '--port', String(port)], {
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
