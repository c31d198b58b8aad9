/**
 * A representative's page in Chromium: reached from a card of the locator, its content and head (title,
 * description, canonical URL, LocalBusiness JSON-LD), Copy link by keyboard, the vCard download, the page not
 * found for an Id of no representative, and axe.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import type { TestServer } from '../support/server.ts';
import { axeViolations, cards, FILTERS, usePageSession, type WatchedPage } from './helpers.ts';

describe('a representative’s page in Chromium', () => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ demoContacts: 200 }, (session) => ({ server, watched, page } = session));

  /** Opens the first card of a locator page by its link, and returns the company's name. */
  async function openFirstCard(): Promise<string> {
    await page.goto(`${server.baseUrl}/${FILTERS.eightPages}`);
    const link = cards(page).first().getByRole('heading').getByRole('link');
    const name = await link.innerText();
    await Promise.all([page.waitForURL(/\/reps\/[A-Za-z0-9]{18}$/), link.click()]);
    return name;
  }

  it('is reached from a card, and shows the representative with tel: and mailto: links', async () => {
    const name = await openFirstCard();
    const recordId = new URL(page.url()).pathname.split('/')[2];
    const { rows } = await server.db.query<{ fields: Record<string, string> }>(
      'SELECT fields FROM record WHERE id = $1',
      [recordId],
    );
    const fields = rows[0].fields;
    expect(name).toBe(fields.APT_Company_Name__c);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    const email = page.getByRole('link', { name: fields.APT_Email__c });
    expect(await email.getAttribute('href')).toBe(`mailto:${fields.APT_Email__c}`);
    const phone = page.locator('a[href^="tel:"]');
    expect(await phone.count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Back to the locator' }).getAttribute('href')).toContain('country=');
  });

  it('has its own title, description, canonical URL and LocalBusiness JSON-LD', async () => {
    await openFirstCard();
    const url = page.url();
    const name = await page.getByRole('heading', { level: 1 }).innerText();
    expect(await page.title()).toContain(name);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain(name);
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(url);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<
      string,
      unknown
    > & { address: Record<string, string> };
    expect(jsonLd['@type']).toBe('LocalBusiness');
    expect(jsonLd.name).toBe(name);
    expect(jsonLd.url).toBe(url);
    expect(jsonLd.address['@type']).toBe('PostalAddress');
    expect(typeof jsonLd.telephone).toBe('string');
    expect(typeof jsonLd.email).toBe('string');
    // The way to write to the representative: its inquiry form.
    expect(await page.getByRole('link', { name: 'Contact this representative' }).getAttribute('href')).toBe(
      `${new URL(url).pathname}/inquiry`,
    );
  });

  it('copies its link by keyboard, and says so', async () => {
    await watched.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    await openFirstCard();
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.includes('copy-link')),
    );
    await page.getByRole('link', { name: 'Save contact (vCard)' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Copy link');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').innerText()).toBe('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  });

  it('downloads its vCard', async () => {
    const name = await openFirstCard();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Save contact (vCard)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.vcf$/);
    const card = await readFile((await download.path())!, 'utf8');
    const lines = card.replace(/\r\n /g, '').split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCARD');
    expect(lines).toContain(`FN:${name.replace(/[\\,;]/g, (char) => `\\${char}`)}`);
    expect(lines).toContain(`URL:${page.url()}`);
  });

  it('is the page not found, with 404, for an Id of no representative', async () => {
    const response = await page.goto(`${server.baseUrl}/reps/${makeId('a1C', 999_999)}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
    // The 404 itself, as the watch and the browser's console report it; nothing else.
    expect(watched.problems).toEqual([
      `404 ${server.baseUrl}/reps/${makeId('a1C', 999_999)}`,
      'error: Failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
    watched.problems.length = 0;
  });

  it('has no axe violations', async () => {
    await openFirstCard();
    expect(await axeViolations(page)).toEqual([]);
  });
});
