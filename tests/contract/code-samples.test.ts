/**
 * The docs page's code samples (x-codeSamples, scripts/lib/code-samples.ts) work as shown: every curl sample,
 * run by the shell against a running server with the demo administrator's password, gets an answer the
 * contract declares for its operation (reads first, the session's own calls last); every client sample
 * type-checks against the client.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable } from '../../generated/operations.ts';
import { codeSamples, LOCAL_SERVER } from '../../scripts/lib/code-samples.ts';
import { contract } from '../support/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { operationsInSessionOrder } from '../support/session.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const samples = codeSamples(contract);
const sampleOf = (operationId: string, label: string) =>
  samples.get(operationId)!.find((sample) => sample.label === label)!.source;

describe('the code samples of the docs page', () => {
  let server: TestServer;
  let work = '';
  const statuses = new Map<string, number>();

  beforeAll(async () => {
    server = await startTestServer();
    work = mkdtempSync(join(tmpdir(), 'code-samples-'));
  });
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('has a client sample and a curl sample for every operation', () => {
    expect([...samples.keys()].sort()).toEqual(Object.keys(operationTable).sort());
    for (const [operationId, list] of samples)
      expect(
        list.map((sample) => sample.label),
        operationId,
      ).toEqual(['Client', 'curl']);
  });

  it.each(operationsInSessionOrder)('%s: the curl sample gets a declared answer', async (operationId) => {
    const shown = sampleOf(operationId, 'curl');
    expect(shown).toContain(LOCAL_SERVER);
    // The last curl is the operation's call: its status is printed instead of its body.
    const last = shown.lastIndexOf('curl -sS');
    const script = `${shown.slice(0, last)}curl -sS -o /dev/null -w '%{http_code}'${shown.slice(last + 'curl -sS'.length)}`;
    const { stdout } = await run('sh', ['-c', script.replaceAll(LOCAL_SERVER, server.baseUrl)], {
      cwd: work,
      env: { PATH: process.env.PATH, DEMO_ADMIN_PASSWORD: server.passwords.admin },
      timeout: 30_000,
    });
    const status = Number(stdout.trim());
    expect(operationTable[operationId].statuses as readonly number[], `${operationId}: ${stdout}`).toContain(status);
    statuses.set(operationId, status);
  });

  it('got 2xx from the curl samples of most operations', () => {
    const succeeded = [...statuses].filter(([, status]) => status >= 200 && status < 300);
    // Signing in with the example's password is refused; the rest name what the demo data holds.
    expect(succeeded.length, JSON.stringify(Object.fromEntries(statuses))).toBeGreaterThanOrEqual(100);
  });

  it('type-checks every client sample against the client', async () => {
    const files = [...samples.keys()].map((operationId) => {
      const file = join(work, `${operationId}.ts`);
      writeFileSync(file, sampleOf(operationId, 'Client'));
      return file;
    });
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          allowImportingTsExtensions: true,
          types: ['node'],
          typeRoots: [resolve(root, 'node_modules/@types')],
          baseUrl: root,
          paths: { 'contact-us-client': [resolve(root, 'client/index.ts')] },
        },
        files,
      }),
    );
    const result = await run(resolve(root, 'node_modules/.bin/tsc'), ['-p', join(work, 'tsconfig.json')], {
      cwd: root,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    expect(result.stdout).toBe('');
  }, 120_000);
});
