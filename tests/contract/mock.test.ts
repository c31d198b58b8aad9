/**
 * The contract as a mock: Prism (pinned @stoplight/prism-cli, as `npm run mock` runs it) serves the bundle,
 * and every operation called once with its example request (tests/support/examples.ts) answers a 2xx the
 * contract declares for it, whose body validates against the contract (an image: its content type only).
 * Prism validates the request too, so an example that breaks its own operation's rules fails here (422).
 */
import { resolve } from 'node:path';
import { createServer as createViteServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOperation, contract, operationsOf } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';
import { startPrism, stopPrism, STARTUP_TIMEOUT_MS } from '../support/prism.ts';

const root = resolve(import.meta.dirname, '../..');
/** Prism checks that a session cookie is there, not what it holds. */
const MOCK_SESSION = 'mock-session';

const operations = operationsOf(contract);

describe(`the Prism mock of the contract answers each of its ${operations.length} operations`, () => {
  let prism: Awaited<ReturnType<typeof startPrism>> | undefined;
  let baseUrl = '';

  beforeAll(async () => {
    prism = await startPrism();
    baseUrl = prism.baseUrl;
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
      expect(await places(devUrl, 'Canada', null)).toEqual([
        'Alberta, Canada',
        'British Columbia, Canada',
        'Manitoba, Canada',
        'Ontario, Canada',
        'Quebec, Canada',
      ]);
      expect(await places(devUrl, 'Canada', 'Ontario')).toEqual(['Ontario, Canada']);
      expect(await places(devUrl, 'Mexico', null)).toEqual(['Jalisco, Mexico', 'Nuevo León, Mexico']);
      expect(await places(devUrl, 'Canada', 'Manitoba')).toEqual(['Manitoba, Canada']);
      expect(await places(devUrl, 'Germany', null)).toEqual([]);
      // Every state the mock offers in its lists shows its contacts when chosen.
      const lists = await fetch(`${devUrl}/lwr/apex/v65.0/APT_ContactUsController/getDependentStatePicklistsValues`);
      const offered = JSON.parse((await lists.json()) as string) as Record<string, string[]>;
      expect(offered.Canada).toContain('Ontario');
      for (const [country, states] of Object.entries(offered)) {
        for (const state of states) expect(await places(devUrl, country, state)).toEqual([`${state}, ${country}`]);
      }
    } finally {
      await dev.close();
      for (const [name, value] of Object.entries(environment)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
