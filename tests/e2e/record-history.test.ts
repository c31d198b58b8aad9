/**
 * A Contact Us record's field history in Chromium, on every test database: signed in, a record edited in the back
 * office shows the change in its Contact Us History related list (the changed field's label, the old and new
 * values, newest first), on the record page and on the related list's own page; axe clean.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { signIn } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const RECORD_API = '/services/data/v65.0/ui-api/records';

/** The history related list's card on the record page (its heading carries the count). */
function historyCard(page: Page) {
  return page
    .locator('.bo-related-list')
    .filter({ has: page.getByRole('heading', { level: 3, name: /^Contact Us History \(\d+\+?\)$/ }) });
}

describe.each(databases())('A Contact Us record’s history in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 20 }, (session) => ({ server, watched, page } = session));

  it('shows an edit made in the back office in the record’s history', async () => {
    const session = await signIn(server, 'admin');
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        apiName: OBJECT,
        fields: {
          APT_Company_Name__c: 'Fjord Breaker Supply',
          APT_City__c: 'Sitka',
          APT_Country__c: 'United States',
          APT_Primary_State__c: 'Alaska',
        },
      }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const recordId = ((await response.json()) as { id: string }).id;

    // Edit its city in the back office's form.
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/edit`);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await page.getByLabel('City', { exact: true }).fill('Juneau');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);

    // The record page's history: the change first, then the creation.
    const card = historyCard(page);
    await expect.poll(() => card.getByRole('heading', { level: 3 }).innerText()).toBe('Contact Us History (2)');
    await expect.poll(() => card.getByRole('listitem').count()).toBe(2);
    const newest = await card.getByRole('listitem').first().innerText();
    expect(newest).toContain('City');
    expect(newest).toContain('Sitka');
    expect(newest).toContain('Juneau');
    expect(await card.getByRole('listitem').nth(1).innerText()).toContain('Created.');
    expect(await axeViolations(page)).toEqual([]);

    // Its own page: date, field, user, old value, new value; newest first.
    await card.getByRole('link', { name: 'View All Contact Us History' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/related/Histories/view`);
    await page.locator('.bo-table tbody tr').first().waitFor();
    const headers = await page.locator('.bo-table thead th').allInnerTexts();
    expect(headers.map((text) => text.replace(/[▲▼]/g, '').trim())).toEqual([
      'Created Date',
      'Changed Field',
      'Created By Full Name',
      'Old Value',
      'New Value',
    ]);
    const cells = await page.locator('.bo-table tbody tr').first().locator('th, td').allInnerTexts();
    expect(cells.slice(1)).toEqual(['City', expect.any(String), 'Sitka', 'Juneau']);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
  });
});
