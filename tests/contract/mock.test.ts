/**
 * The contract as a mock: Prism (pinned @stoplight/prism-cli, as `npm run mock` runs it) serves the bundle,
 * and every operation called once with its example request (tests/support/examples.ts) answers a 2xx the
 * contract declares for it, whose body validates against the contract (an image: its content type only).
 * Prism validates the request too, so an example that breaks its own operation's rules fails here (422).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { resolve } from 'node:path';
import { createServer as createViteServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation, contract, CONTRACT_PATH, operationsOf } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';

const root = resolve(import.meta.dirname, '../..');
const PRISM = resolve(root, 'node_modules/.bin/prism');
const STARTUP_TIMEOUT_MS = 90_000;
/** Prism checks that a session cookie is there, not what it holds. */
const MOCK_SESSION = 'mock-session';

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

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

/** Starts Prism on the bundle and waits until it listens; rejects with its output if it exits or hangs. */
async function startPrism(port: number): Promise<{ child: ChildProcess; output: () => string }> {
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
    if (/Prism is listening/.test(output) && (await accepts(port))) return { child, output: () => output };
    await new Promise((wait) => setTimeout(wait, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`Prism did not listen on port ${port} within ${STARTUP_TIMEOUT_MS} ms:\n${output.slice(-3000)}`);
}

function stopPrism(child: ChildProcess): Promise<void> {
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

const operations = operationsOf(contract);

describe(`the Prism mock of the contract answers each of its ${operations.length} operations`, () => {
  let prism: { child: ChildProcess; output: () => string } | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    const port = await freePort();
    prism = await startPrism(port);
    baseUrl = `http://127.0.0.1:${port}`;
  }, STARTUP_TIMEOUT_MS + 10_000);
  afterAll(async () => {
    if (prism) await stopPrism(prism.child);
  });

  it.each(operations.map((operation) => [operation.operationId, operation] as const))(
    '%s: a declared 2xx that validates against the contract',
    async (operationId, operation) => {
      const { url, init } = exampleFetch(baseUrl, operation, { session: MOCK_SESSION });
      const response = await callOperation(operationId, url, init, { target: 'mock' }).catch((error: Error) => {
        // An undeclared status (Prism's 422 for an invalid example request ...) fails with Prism's own words.
        throw new Error(`${error.message}\nPrism's last words:\n${prism!.output().slice(-1500)}`, { cause: error });
      });
      const answer = `${operation.method.toUpperCase()} ${url.slice(baseUrl.length)} answered ${response.status}: ${response.text.slice(0, 600)}`;
      expect(response.status >= 200 && response.status < 300, answer).toBe(true);
    },
  );

  it('answers npm run dev:mock with the contacts of the country and state chosen (the dev server names the example)', async () => {
    const environment = { API_TARGET: process.env.API_TARGET, MOCK_EXAMPLES: process.env.MOCK_EXAMPLES };
    process.env.API_TARGET = baseUrl;
    process.env.MOCK_EXAMPLES = '1';
    const dev = await createViteServer({
      configFile: resolve(root, 'web/vite.config.ts'),
      logLevel: 'silent',
      server: { port: 0, strictPort: false },
    });
    try {
      await dev.listen();
      const devUrl = `http://127.0.0.1:${(dev.httpServer!.address() as { port: number }).port}`;
      const places = async (target: string, country: string, state: string | null) => {
        const methodParams = JSON.stringify({ country, state, brands: ['Arcline'], lastRecordId: null });
        const response = await fetch(
          `${target}/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${encodeURIComponent(methodParams)}`,
        );
        expect(response.status).toBe(200);
        const { contacts, totalRecords } = (await response.json()) as {
          contacts: { APT_UI_Country__c: string; APT_Primary_State__c: string }[];
          totalRecords: number;
        };
        expect(totalRecords).toBe(contacts.length);
        return [
          ...new Set(contacts.map((contact) => `${contact.APT_Primary_State__c}, ${contact.APT_UI_Country__c}`)),
        ].sort();
      };
      // Prism alone answers its first example whatever is asked.
      expect(await places(baseUrl, 'Canada', null)).toEqual(['Texas, United States']);
      expect(await places(devUrl, 'Canada', null)).toEqual(['Ontario, Canada', 'Quebec, Canada']);
      expect(await places(devUrl, 'Canada', 'Ontario')).toEqual(['Ontario, Canada']);
      expect(await places(devUrl, 'Mexico', null)).toEqual(['Jalisco, Mexico']);
      expect(await places(devUrl, 'Canada', 'Manitoba')).toEqual([]);
    } finally {
      await dev.close();
      for (const [name, value] of Object.entries(environment)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
