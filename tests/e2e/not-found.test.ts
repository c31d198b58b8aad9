/**
 * An address the site does not have: the page not found, in the store's frame (banner, footer) and style,
 * with status 404 and the way back to the Contact Us page; for unknown addresses under the docs too. And the
 * icon that browsers ask for without reading the page (/favicon.ico).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { usePageSession, type WatchedPage } from './helpers.ts';

describe('the page not found', () => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ demoContacts: 20 }, (session) => ({ server, watched, page } = session));

  it.each(['/no/such/page', '/contact-us?brand=Gridmark', '/docs/no-such-group/getcontacts'])(
    '%s answers 404 with the styled page and the way back',
    async (path) => {
      const response = await page.goto(`${server.baseUrl}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.title()).toBe('Page not found');
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
      // The store's frame and style: the banner's picture, the footer, the stylesheet applied.
      expect(await page.locator('header.banner img').count()).toBe(1);
      expect(await page.locator('footer.site-footer').getByRole('link', { name: 'Sign in' }).count()).toBe(1);
      expect(await page.locator('body').evaluate((body) => getComputedStyle(body).margin)).toBe('0px');
      expect((await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id)).toEqual([]);

      await page.getByRole('link', { name: 'Go to the Contact Us page' }).click();
      await page.waitForURL(`${server.baseUrl}/`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).not.toBe('Page not found');
      // The one failed response is the page not found itself, which the browser logs.
      expect(watched.problems).toEqual([
        `404 ${server.baseUrl}${path}`,
        'error: Failed to load resource: the server responded with a status of 404 (Not Found)',
      ]);
      watched.problems.length = 0;
    },
  );

  it('leaves the docs addresses that exist to the docs page', async () => {
    for (const path of ['/docs', '/docs/storefront', '/docs/storefront/getcontacts', '/docs/section/errors']) {
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { Accept: 'text/html' } });
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<div id="redoc">');
    }
  });

  it('serves /favicon.ico, an icon file with the site icon', async () => {
    const response = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(bytes.subarray(22, 30).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  });
});
