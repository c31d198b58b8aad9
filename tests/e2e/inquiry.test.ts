/**
 * An inquiry to a representative in Chromium: from a locator card's "Contact this representative" to the form,
 * a page the server renders complete (no app hydrates it), with JavaScript and without: a plain form POST, the
 * form again with the errors beside the fields and the values kept, then a 303 to the confirmation page; by
 * keyboard, and axe on each state of the page. The server's clock runs 5 seconds ahead once the form is filled, for the minimum fill time.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { DEFAULT_CONTACT_ID } from '../support/api.ts';
import { untilHydrated, usePageSession, watchedPage, type WatchedPage } from './helpers.ts';
import type { Browser } from 'playwright-core';

let ahead = 0;
const clock = { now: () => Date.now() + ahead };

const axe = async (page: Page) =>
  (await new AxeBuilder({ page }).analyze()).violations.map((violation) => violation.id);

const caseCount = async (server: TestServer) =>
  Number(
    (await server.db.query<{ n: string }>(`SELECT count(*) AS n FROM record WHERE object_api_name = 'Case'`)).rows[0].n,
  );

describe('an inquiry to a representative', () => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  let browser: Browser;
  usePageSession(
    {
      demoContacts: 40,
      app: { clock, limits: { publicRequestsPerMinute: 0, signInAttemptsPerWindow: 0, inquiriesPerWindow: 0 } },
    },
    (session) => ({ server, watched, page, browser } = session),
  );

  it('is sent by keyboard from a card, the form again with its errors, then the confirmation; axe on each', async () => {
    await page.goto(`${server.baseUrl}/?country=United+States`);
    await untilHydrated(page);
    const link = page.getByRole('link', { name: 'Contact this representative' }).first();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/reps\/[a-zA-Z0-9]{18}\/inquiry$/);
    await link.click();
    await page.waitForURL(`${server.baseUrl}${href}`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Contact /);
    expect(await page.getByTestId('inquiry-representative').innerText()).toMatch(/Representative/);
    expect(await axe(page)).toEqual([]);

    // Filled in by keyboard, field after field, with an e-mail address that is not one, and sent with Enter.
    ahead = 5_000;
    const before = await caseCount(server);
    await page.getByLabel('Name *').focus();
    await page.keyboard.type('Dana Reyes');
    await page.keyboard.press('Tab');
    await page.keyboard.type('dana.example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('+1 512 555 0134');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Reyes Electric');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Prices for 40 panel boards, please.');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Send inquiry');
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    expect(refused.status()).toBe(400);
    await page.waitForLoadState();
    expect(await page.locator('#inquiry-email-error').innerText()).toMatch(/such as name@example.com/);
    expect(await page.getByLabel('E-mail *').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Name *').inputValue()).toBe('Dana Reyes');
    expect(await axe(page)).toEqual([]);
    watched.problems.length = 0;

    await page.getByLabel('E-mail *').fill('dana@example.com');
    await page.getByLabel('E-mail *').press('Enter');
    await page.waitForURL(/\?sent=\d{8}$/);
    expect(await page.getByRole('heading', { name: 'Your inquiry was sent' }).count()).toBe(1);
    expect(await caseCount(server)).toBe(before + 1);
    expect(await axe(page)).toEqual([]);
    ahead = 0;
  });

  it('is sent without JavaScript: a plain POST, the form again with its errors, then the confirmation page', async () => {
    const plain: WatchedPage = await watchedPage(browser, { javaScriptEnabled: false });
    try {
      const noScript = plain.page;
      const path = `/reps/${DEFAULT_CONTACT_ID}/inquiry`;
      const first = await noScript.goto(`${server.baseUrl}${path}`);
      expect(first?.status()).toBe(200);
      expect(first?.headers()['cache-control']).toBe('no-store');
      await noScript.getByLabel('Name *').fill('Dana Reyes');
      await noScript.getByLabel('E-mail *').fill('dana.example.com');
      await noScript.getByLabel('Company *').fill('Reyes Electric');
      await noScript.getByLabel('Message *').fill('Prices, please.');
      ahead = 5_000;
      const before = await caseCount(server);
      const [refused] = await Promise.all([
        noScript.waitForResponse((response) => response.request().method() === 'POST'),
        noScript.getByRole('button', { name: 'Send inquiry' }).click(),
      ]);
      expect(refused.status()).toBe(400);
      await noScript.waitForLoadState();
      expect(await noScript.locator('#inquiry-email-error').innerText()).toMatch(/such as name@example.com/);
      expect(await noScript.getByLabel('Name *').inputValue()).toBe('Dana Reyes');
      expect(await noScript.getByLabel('Message *').inputValue()).toBe('Prices, please.');

      await noScript.getByLabel('E-mail *').fill('dana@example.com');
      await noScript.getByRole('button', { name: 'Send inquiry' }).click();
      await noScript.waitForURL(/\?sent=\d{8}$/);
      expect(await noScript.getByRole('heading', { name: 'Your inquiry was sent' }).count()).toBe(1);
      expect(await caseCount(server)).toBe(before + 1);
      // The one failed response is the refused post, which the browser logs.
      expect(plain.problems.filter((problem) => !problem.includes('400'))).toEqual([]);
    } finally {
      ahead = 0;
      await plain.context.close();
    }
  });
});
