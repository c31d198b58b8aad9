/**
 * The back office's lookups in Chromium, on every test database: a record's owner changed in its edit form by
 * typing two characters and choosing with the keyboard (the id is what the save sends; the record page then
 * shows the new owner's name); a search that finds nothing, said in the list, and Escape giving up what was
 * typed; a failed search, said as such; axe with the list open; 390 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const RECORD_API = '/services/data/v65.0/ui-api/records';
const LOOKUP_API = `/services/data/v65.0/ui-api/lookups/${OBJECT}/OwnerId`;

/** The Owner lookup of the form. */
function owner(page: Page) {
  return page.getByRole('combobox', { name: 'Owner', exact: true });
}

/** A value shown on a record page, by its field's label. */
function shownValue(page: Page, label: string) {
  return page
    .locator('.bo-field')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

/**
 * Records the body of every write the page sends (window.sentWrites): Chromium does not report the body of a
 * fetch made with a Request object to the test.
 */
async function recordWrites(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const original = window.fetch.bind(window);
    const sent: unknown[] = [];
    Object.assign(window, { sentWrites: sent });
    window.fetch = async (input, init) => {
      if (input instanceof Request && input.method === 'PATCH')
        sent.push(JSON.parse((await input.clone().text()) || 'null'));
      return original(input, init);
    };
  });
}

function sentWrites(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { sentWrites: unknown[] }).sentWrites);
}

describe.each(databases())('The back office’s lookups in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 20 }, (session) => ({ server, watched, page } = session));

  async function signedIn(): Promise<TestSession> {
    const session = await signIn(server, 'admin');
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    return session;
  }

  /** A Contact Us record, created through the API by the administrator, who owns it; its edit form open. */
  async function editFormOfNewRecord(company: string): Promise<string> {
    const session = await signedIn();
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: OBJECT, fields: { APT_Company_Name__c: company, APT_City__c: 'Madison' } }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${id}/edit`);
    await page.getByRole('button', { name: 'Save' }).waitFor();
    await expect.poll(() => owner(page).inputValue()).toBe('Store Administrator');
    return id;
  }

  it('changes the owner by typing two characters and choosing with the keyboard', async () => {
    await recordWrites(page);
    const recordId = await editFormOfNewRecord('Lookup Lane Breakers');
    const input = owner(page);
    await input.focus();
    await page.keyboard.press('ControlOrMeta+A');
    const searched = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().includes(LOOKUP_API),
    );
    await page.keyboard.type('Sa');
    const request = await searched;
    const url = new URL(request.url());
    expect(url.searchParams.get('searchType')).toBe('TypeAhead');
    expect(url.searchParams.get('q')).toBe('Sa');

    const listbox = page.getByRole('listbox', { name: 'Owner suggestions' });
    await listbox.waitFor();
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    expect(await listbox.getByRole('option').allInnerTexts()).toEqual([
      expect.stringContaining('Sales Representative'),
    ]);
    expect(await page.getByRole('status').filter({ hasText: '1 result.' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('ArrowDown');
    const option = listbox.getByRole('option', { name: /Sales Representative/ });
    expect(await option.getAttribute('aria-selected')).toBe('true');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
    await page.keyboard.press('Enter');
    expect(await input.inputValue()).toBe('Sales Representative');
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    // Enter chose, and did not send the form.
    expect(new URL(page.url()).pathname).toMatch(/\/edit$/);

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    expect(await sentWrites(page)).toEqual([{ fields: { OwnerId: DEMO_USERS.standard.userId } }]);
    await expect.poll(() => shownValue(page, 'Owner').innerText()).toBe('Sales Representative');
  });

  it('says when nothing matches, and Escape gives up what was typed', async () => {
    await editFormOfNewRecord('Nomatch Switch Co');
    const input = owner(page);
    await input.fill('zqx');
    const status = page.getByRole('status').filter({ hasText: 'No results for “zqx”.' });
    await status.waitFor();
    expect(await status.isVisible()).toBe(true);
    expect(await input.getAttribute('aria-expanded')).toBe('false');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await input.inputValue()).toBe('Store Administrator');
    // One character is not searched for.
    await input.fill('S');
    await new Promise((done) => setTimeout(done, 400));
    expect(await page.getByRole('listbox').count()).toBe(0);
  });

  it('says when the search fails', async () => {
    await editFormOfNewRecord('Failing Fuse Co');
    await page.route(`**${LOOKUP_API}?**`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'UNKNOWN_EXCEPTION', message: 'Something went wrong.' }]),
      }),
    );
    await owner(page).fill('Sa');
    await page.getByRole('status').filter({ hasText: 'The search failed. Try again.' }).waitFor();
    expect(await page.getByRole('listbox').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems.length).toBeGreaterThan(0);
    expect(watched.problems.every((problem) => / 500|500 /.test(problem))).toBe(true);
    watched.problems.length = 0;
  });

  it('works at 390 px wide, with the list open', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await editFormOfNewRecord('Narrow Relay Ltd');
    await owner(page).fill('Sa');
    const listbox = page.getByRole('listbox', { name: 'Owner suggestions' });
    await listbox.waitFor();
    const box = await listbox.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([]);
  });
});
