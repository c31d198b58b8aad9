/**
 * The API reference at /docs, as a visitor meets it: no console error, nothing blocked by the page's own
 * Content-Security-Policy and nothing loaded from another site (telemetry, the badge's logo), an icon, links
 * that answer on their own (in a new tab), and operations a guest may call shown as such.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ROOT, watchedPage, type WatchedPage } from './helpers.ts';

const DOCS = resolve(ROOT, 'dist/docs/index.html');

/** The docs page once Redoc has hydrated it (its sidebar answers clicks). */
async function openDocs(page: Page, url: string): Promise<void> {
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
  await page.waitForFunction(() =>
    Object.keys(document.getElementById('redoc')!).some((key) => key.startsWith('__reactContainer')),
  );
}

function sidebar(page: Page) {
  return page.locator('.menu-content');
}

function securityBox(page: Page) {
  return page.locator('main, #redoc').getByText('View security details').first().locator('xpath=ancestor::*[3]');
}

describe('API docs', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    if (!existsSync(DOCS)) throw new Error('The docs are not built: npm test builds them (npm run build).');
    server = await startTestServer({ demoContacts: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    watched = await watchedPage(browser);
    page = watched.page;
    page.on('requestfailed', (request) =>
      watched.problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
    );
  });
  afterEach(async () => {
    await watched.context.close();
    expect(watched.problems).toEqual([]);
  });

  it('loads without a console error, a blocked resource or a request off the machine, telemetry included', async () => {
    await openDocs(page, `${server.baseUrl}/docs`);
    // Redoc sends its telemetry a few seconds after the first interactions: go about the page and wait.
    await sidebar(page).getByRole('link', { name: 'Storefront', exact: true }).click();
    await page
      .getByRole('link', { name: /Get the default contacts/ })
      .first()
      .click();
    await page.mouse.wheel(0, 2000);
    await page.waitForTimeout(6000);
    expect(
      await page.evaluate(
        () => document.querySelectorAll('script[src^="http"], link[href^="http"]:not([rel="noopener"])').length,
      ),
    ).toBe(0);
  });

  it('shows the "API docs by" badge with its logo, drawn in the page', async () => {
    await openDocs(page, `${server.baseUrl}/docs`);
    const logo = page.getByRole('img', { name: 'redocly logo' });
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
  });

  it('has an icon, so the browser does not ask for /favicon.ico', async () => {
    await openDocs(page, `${server.baseUrl}/docs`);
    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(icon).toBe('/favicon.svg');
    const response = await fetch(new URL(icon!, server.baseUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml\b/);
  });

  it('gives every sidebar link an address that opens the same part of the docs in a new tab', async () => {
    await openDocs(page, `${server.baseUrl}/docs`);
    const links = await sidebar(page)
      .getByRole('link')
      .evaluateAll((anchors) =>
        anchors.map((anchor) => ({ href: anchor.getAttribute('href')!, text: anchor.textContent!.trim() })),
      );
    const groups = links.filter((link) => ['Storefront', 'Records', 'Session'].includes(link.text));
    expect(groups.map((link) => link.href)).toEqual(['/docs/storefront', '/docs/records', '/docs/session']);
    // Every link of the sidebar but the badge's (to Redocly's site) is one of the docs' own addresses.
    expect(links.filter((link) => !link.href.startsWith('/docs/') && link.href !== '/docs')).toEqual([
      { href: 'https://redocly.com/redoc/', text: 'API docs by' },
    ]);

    // A new tab on a group and on an operation: the server answers with the page, which shows that part.
    for (const [href, heading] of [
      ['/docs/records', 'Records'],
      ['/docs/storefront/getdefaultcontacts', 'Get the default contacts'],
    ]) {
      const tab = await watched.context.newPage();
      await openDocs(tab, server.baseUrl + href);
      // The part's heading, scrolled into view.
      const title = tab
        .locator('h1, h2')
        .filter({ hasText: new RegExp(`^${heading}$`) })
        .first();
      await expect.poll(() => title.evaluate((element) => element.getBoundingClientRect().top)).toBeLessThan(200);
      expect(await title.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
      expect(new URL(tab.url()).pathname).toBe(href);
      await tab.close();
    }

    // And a click in the page goes there without leaving it.
    await sidebar(page).getByRole('link', { name: 'Session', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/docs/session');
  });

  it('shows that guests may call an operation whose security lists {}, and not one that needs a session', async () => {
    await openDocs(page, `${server.baseUrl}/docs/storefront/getdefaultcontacts`);
    await expect.poll(() => securityBox(page).innerText()).toMatch(/Security[\s\S]*guest\s+or\s+sessionCookie/);
    await securityBox(page).getByText('View security details').click();
    await expect
      .poll(() => page.getByText('a visitor who has not signed in calls the operation').isVisible())
      .toBe(true);

    await openDocs(page, `${server.baseUrl}/docs/records/createrecord`);
    await expect.poll(() => securityBox(page).innerText()).toMatch(/Security[\s\S]*sessionCookie/);
    expect(await securityBox(page).innerText()).not.toContain('guest');
  });
});
