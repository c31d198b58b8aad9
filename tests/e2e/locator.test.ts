/** The page in a real Chromium: it loads, shows the default contact, and the locator finds contacts. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const WEB_BUILD = resolve(import.meta.dirname, '../../dist/web/index.html');

describe('Contact Us page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(WEB_BUILD)) throw new Error('The web app is not built: npm test builds it (npm run build).');
    server = await startTestServer();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) consoleErrors.push(`${response.status()} ${response.url()}`);
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:') throw new Error(`Request off this machine: ${url}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the default contact from the live API', async () => {
    await page.goto(server.baseUrl + '/');
    await page.getByRole('heading', { name: 'Northgate Electrical Products, Inc.' }).waitFor();
    const block = await page.locator('body').innerText();
    expect(block).toContain('1200 Commerce Drive');
    expect(block).toContain('Suite 400, Wisconsin');
  });

  it('lists countries, then shows cards after a country is picked', async () => {
    const country = page.getByLabel('Country');
    await expect.poll(() => country.locator('option').count()).toBeGreaterThan(100);
    expect(await page.getByText('No Contacts to display').count()).toBe(1);
    await country.selectOption('Canada');
    const cards = page.getByTestId('contact-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(12);
    const firstCard = await cards.first().innerText();
    expect(firstCard).toContain('Canada');
    expect(firstCard).toMatch(/a1C8d0[A-Za-z0-9]{12}/);
    // Canada's provinces are offered, upper-cased, once a country is chosen.
    const states = await page.getByLabel('State/Province').locator('option').allInnerTexts();
    expect(states).toContain('ONTARIO');
  });

  it('pages through the cards and narrows by state', async () => {
    const pager = page.getByRole('navigation', { name: 'Pagination' });
    const before = await page.getByTestId('contact-card').first().innerText();
    await pager.getByRole('button', { name: /^(Go to )?page 2$/i }).click();
    await expect.poll(() => page.getByTestId('contact-card').first().innerText()).not.toBe(before);
    await page.getByLabel('State/Province').selectOption('Ontario');
    await page.getByTestId('contact-card').first().waitFor();
    const texts = await page.getByTestId('contact-card').allInnerTexts();
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toContain('Ontario');
    expect(consoleErrors).toEqual([]);
  });
});
