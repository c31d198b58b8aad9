/**
 * An address over Node's 16 KB limit on the request line and headers, which Node's HTTP server refuses
 * before the app sees it: the server as `npm start` runs it (site/main.ts, in its own process) answers a
 * browser with the site's short page, and an API client with the API's error shape, instead of an empty 431
 * that a browser replaces with its own error page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { freePort } from '../support/server.ts';
import { ROOT, watchedPage } from './helpers.ts';

const LONG = 'x'.repeat(17_000);

describe('An address over the size limit', () => {
  let child: ChildProcess;
  let baseUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: ':memory:',
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_CONTACTS: '20',
    };
    delete env.DATABASE_URL;
    child = spawn(process.execPath, ['--import', 'tsx', 'site/main.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr!.on('data', (chunk) => (output += chunk));
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`The server did not start in time:\n${output}`)), 90_000);
      child.stdout!.on('data', (chunk) => {
        output += chunk;
        if (/Contact Us storefront on http:\/\//.test(output)) {
          clearTimeout(timer);
          ready();
        }
      });
      child.once('exit', () => fail(new Error(`The server exited:\n${output}`)));
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((done) => child.once('exit', done));
    }
  });

  it('shows the browser the site’s page, which leads back to the Contact Us page', async () => {
    const watched = await watchedPage(browser);
    const { page } = watched;
    try {
      const response = await page.goto(`${baseUrl}/?country=${LONG}`);
      expect(response?.status()).toBe(414);
      expect(await page.title()).toBe('Address too long');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Address too long');
      expect(await page.getByRole('main').innerText()).toContain('longer than the site accepts (16 KB)');
      await page.getByRole('link', { name: 'Go to the Contact Us page' }).click();
      await page.waitForURL(`${baseUrl}/`);
      expect(await page.getByTestId('default-contact').getByRole('heading').innerText()).toBe(
        'Northgate Electrical Products, Inc.',
      );
      // The one problem is the refused address itself (its status, and Chromium's console line for it).
      const refusal = (problem: string) =>
        problem.startsWith(`414 ${baseUrl}/?country=xxx`) || problem.includes('status of 414 (URI Too Long)');
      expect(watched.problems.filter(refusal)).toHaveLength(2);
      expect(watched.problems.filter((problem) => !refusal(problem))).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('answers an API path with the API’s error shape, and every answer carries the security headers', async () => {
    const record = await fetch(`${baseUrl}/services/data/v65.0/ui-api/records/${LONG}`);
    expect(record.status).toBe(414);
    expect(record.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(record.headers.get('x-content-type-options')).toBe('nosniff');
    expect(record.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await record.json()).toEqual([
      { errorCode: 'URI_TOO_LONG', message: "The request's address is longer than the server accepts (16 KB)" },
    ]);

    const apex = await fetch(`${baseUrl}/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${LONG}`);
    expect(apex.status).toBe(414);
    expect(await apex.json()).toEqual({
      errorMessage: "The request's address is longer than the server accepts (16 KB)",
    });

    // Headers over the limit: 431, in the shape the request asked for.
    const json = await fetch(`${baseUrl}/services/data/v65.0/ui-api/object-info`, {
      headers: { Accept: 'application/json', 'X-Big': LONG },
    });
    expect(json.status).toBe(431);
    expect(await json.json()).toEqual([
      {
        errorCode: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
        message: "The request's address and headers are larger than the server accepts (16 KB)",
      },
    ]);
    const page = await fetch(`${baseUrl}/`, { headers: { Accept: 'text/html', Cookie: `a=${LONG}` } });
    expect(page.status).toBe(431);
    expect(await page.text()).toContain('<title>Request too large</title>');

    // And the server goes on answering.
    expect((await fetch(`${baseUrl}/openapi.json`)).status).toBe(200);
  });
});
