/**
 * The client as others install it: built and packed (npm pack in client/), installed from the tarball into a
 * throw-away project, a sample file type-checked against its declarations, and three operations called with
 * it against a running server and against the Prism mock of the contract.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import { startPrism, stopPrism, STARTUP_TIMEOUT_MS } from '../support/prism.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const root = resolve(import.meta.dirname, '../..');
const TSC = resolve(root, 'node_modules/.bin/tsc');
const version = (name: string) =>
  (JSON.parse(readFileSync(resolve(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

/** Type-checked, not run: the core entry and the React entry as a consumer writes them. */
const SAMPLE_TS = `
import { createApiClient, createRecord, getRecord, isApiError, type OperationError } from 'contact-us-client';
import { getRecordQuery, updateRecordMutation } from 'contact-us-client/react';
import { QueryClient } from '@tanstack/react-query';

const api = createApiClient({ baseUrl: 'http://127.0.0.1:3000' });
export async function sample(): Promise<string> {
  const record = await getRecord(api, { path: { recordId: '001000000000001AAA' } });
  // @ts-expect-error the required path parameter is missing
  await getRecord(api, {});
  try {
    await createRecord(api, { body: { apiName: 'Contact', fields: { LastName: 'Ng' } } });
  } catch (cause) {
    const error = cause as OperationError<'createRecord'>;
    if (error.status === 401) return error.body[0].errorCode;
    if (isApiError(error)) return error.message;
  }
  const queryClient = new QueryClient();
  const query = getRecordQuery(api, { path: { recordId: record.id } });
  const mutation = updateRecordMutation(api, queryClient);
  return String(query.staleTime) + String(mutation.mutationKey);
}
`;

/** Run with node: three guest calls against the base URL it is given, the answers printed as JSON. */
const SAMPLE_MJS = `
import { createApiClient, getContacts, getObjectInfo, getSession } from 'contact-us-client';

const api = createApiClient({ baseUrl: process.argv[2] });
const session = await getSession(api);
const methodParams = JSON.stringify({ country: 'Canada', state: null, brands: [], lastRecordId: null });
const contacts = await getContacts(api, { query: { methodParams } });
const objectInfo = await getObjectInfo(api, { path: { objectApiName: 'APT_Contact_Us__c' } });
console.log(JSON.stringify({ isGuest: session.isGuest, contacts: contacts.contacts.length, total: contacts.totalRecords, apiName: objectInfo.apiName }));
`;

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Runs node on a file of the project without blocking this process, which serves the test server. */
async function runNode(file: string, argument: string, cwd: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [file, argument], { cwd, timeout: 60_000 });
  return stdout;
}

describe('the client package', () => {
  let project = '';
  let server: TestServer | undefined;
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  let mockUrl = '';

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'client-consumer-'));
    await buildClient();
    run('npm', ['pack', '--silent', '--pack-destination', project], resolve(root, 'client'));
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))!;
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'consumer',
        private: true,
        type: 'module',
        dependencies: {
          'contact-us-client': `file:./${tarball}`,
          '@tanstack/react-query': version('@tanstack/react-query'),
          react: version('react'),
        },
      }),
    );
    // What the repository's own install put in npm's cache is all this needs.
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project);
    [server, prism] = await Promise.all([startTestServer(), startPrism()]);
    mockUrl = prism.baseUrl;
  }, STARTUP_TIMEOUT_MS + 240_000);

  afterAll(async () => {
    await server?.close();
    if (prism) await stopPrism(prism.child);
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('installs with ESM entries, declarations and only openapi-fetch as a dependency', () => {
    const installed = JSON.parse(
      readFileSync(join(project, 'node_modules/contact-us-client/package.json'), 'utf8'),
    ) as { type: string; exports: Record<string, { types: string; import: string }>; dependencies: object };
    expect(installed.type).toBe('module');
    expect(Object.keys(installed.exports)).toEqual(['.', './react']);
    expect(Object.keys(installed.dependencies)).toEqual(['openapi-fetch']);
    expect(readdirSync(join(project, 'node_modules/contact-us-client/dist'))).toEqual(
      expect.arrayContaining(['index.js', 'react.js', 'types']),
    );
  });

  it('type-checks a consumer file against its declarations', () => {
    writeFileSync(join(project, 'sample.ts'), SAMPLE_TS);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ['sample.ts'],
      }),
    );
    expect(() => execFileSync(TSC, ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' })).not.toThrow();
    // A wrong call does not compile through the package either.
    writeFileSync(
      join(project, 'sample.ts'),
      SAMPLE_TS.replace('// @ts-expect-error the required path parameter is missing\n', ''),
    );
    const failed = spawnSync(TSC, ['-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).toMatch(/sample\.ts\(\d+,\d+\): error TS2345/);
  });

  it('calls three operations against the server and against the Prism mock', async () => {
    writeFileSync(join(project, 'sample.mjs'), SAMPLE_MJS);
    const real = JSON.parse(await runNode('sample.mjs', server!.baseUrl, project)) as Record<string, unknown>;
    expect(real).toMatchObject({ isGuest: true, apiName: 'APT_Contact_Us__c' });
    expect(real.total).toBeGreaterThan(0);
    const mock = JSON.parse(await runNode('sample.mjs', mockUrl, project)) as Record<string, unknown>;
    expect(mock).toMatchObject({ apiName: 'APT_Contact_Us__c' });
    expect(typeof mock.isGuest).toBe('boolean');
  });

  it('leaves the operations an app does not import out of its bundle', async () => {
    const apps = {
      core: `import { createApiClient, getRecord, getRecords, createRecord, updateRecord, deleteRecord } from 'contact-us-client';
        export const calls = [createApiClient, getRecord, getRecords, createRecord, updateRecord, deleteRecord];`,
      react: `import { createApiClient } from 'contact-us-client';
        import { getRecordQuery, getRecordsQuery, createRecordMutation, updateRecordMutation, deleteRecordMutation } from 'contact-us-client/react';
        export const factories = [createApiClient, getRecordQuery, getRecordsQuery, createRecordMutation, updateRecordMutation, deleteRecordMutation];`,
    };
    const sizes: string[] = [];
    for (const [name, source] of Object.entries(apps)) {
      writeFileSync(join(project, `app-${name}.mjs`), source);
      const { outputFiles } = await build({
        entryPoints: [join(project, `app-${name}.mjs`)],
        absWorkingDir: project,
        bundle: true,
        minify: true,
        format: 'esm',
        write: false,
        // The app has React and TanStack Query already: what the client adds is measured.
        external: ['react', '@tanstack/react-query'],
      });
      const code = outputFiles[0].text;
      expect(code).toContain('/services/data/v65.0/ui-api/records/batch/{recordIds}');
      for (const unused of ['/ui-api/search/results/keyword', '/ui-api/list-records/', 'getContacts', 'predupe'])
        expect(code, `${name}: ${unused}`).not.toContain(unused);
      sizes.push(`${name} entry, five operations: ${(gzipSync(code).length / 1024).toFixed(1)} kB gzipped`);
    }
    console.log(`client bundles (openapi-fetch included; React and TanStack Query not):\n  ${sizes.join('\n  ')}`);
  });
});
