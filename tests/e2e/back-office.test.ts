/**
 * The back office under /lightning/ in Chromium, on every test database: a guest is sent to sign in and comes
 * back; the app's tabs; a list view's records, sorted by a column header (click and keyboard, with aria-sort)
 * and paged by the platform's page tokens; a record's page with its layout's sections and values; an unknown
 * record said so; axe clean; usable by keyboard alone with the focus visible; at 390 px wide.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { DEMO_USERS, SESSION_PATH, signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations, openInBackOffice } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
/** Enough for three pages of 50. */
const CONTACTS = 120;

/** The list's rows: the text of each row's first cell, the record's name. */
function rowNames(page: Page): Promise<string[]> {
  return page.locator('.bo-table tbody tr > :first-child').allInnerTexts();
}

/** A column's values on the page shown, by its header's text. */
async function columnValues(page: Page, header: string): Promise<string[]> {
  const headers = await page.locator('.bo-table thead th').allInnerTexts();
  const index = headers.findIndex((text) => text.replace(/[▲▼]/g, '').trim() === header);
  expect(index, `a column ${header}`).toBeGreaterThanOrEqual(0);
  return page.locator(`.bo-table tbody tr > :nth-child(${index + 1})`).allInnerTexts();
}

function header(page: Page, label: string) {
  return page.getByRole('columnheader', { name: label });
}

/** Until the list shows records and is not loading another page or order. */
async function listShown(page: Page): Promise<void> {
  await page.locator('.bo-table tbody tr').first().waitFor();
  await expect.poll(() => page.locator('.bo-table').getAttribute('aria-busy')).toBe('false');
}

/** What has the focus, and whether it shows: its role or tag, its text, and its outline. */
function focused(page: Page): Promise<{ what: string; outlined: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { what: 'body', outlined: false };
    const style = getComputedStyle(element);
    return {
      what: `${element.tagName.toLowerCase()}: ${(element.textContent ?? '').replace(/[▲▼]/g, '').trim()}`,
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  });
}

describe.each(databases())('The back office in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: CONTACTS }, (session) => ({ server, watched, page } = session));

  /** Signs the page's browser in (the administrator by default), without the sign-in page (its own test is below). */
  async function signedIn(who: 'admin' | 'standard' = 'admin'): Promise<TestSession> {
    const session = await signIn(server, who);
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    return session;
  }

  it('sends a guest to sign in, and back to the list after signing in', async () => {
    await page.goto(`${server.baseUrl}${LIST}`);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('startURL')).toBe(LIST);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    await page.getByLabel('E-mail address').fill(DEMO_USERS.admin.username);
    await page.getByLabel('Password').fill(server.passwords.admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.baseUrl}${LIST}`);
    await listShown(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('All Contact Us');
    expect(await page.title()).toBe('Storefront Console');
  });

  it('shows the app and its tabs, each a link to its object’s home', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}/lightning`);
    // The bare address opens the app's first tab.
    await page.waitForURL(`${server.baseUrl}/lightning/o/${OBJECT}/home`);
    await listShown(page);
    const banner = page.getByRole('banner');
    expect(await banner.getByText('Storefront Console').count()).toBe(1);
    const tabs = page.getByRole('navigation', { name: 'Tabs' }).getByRole('link');
    expect(await tabs.allInnerTexts()).toEqual(['Contact Us', 'Accounts']);
    expect(await tabs.first().getAttribute('href')).toBe(`/lightning/o/${OBJECT}/home`);
    expect(await tabs.first().getAttribute('aria-current')).toBe('page');
    await tabs.nth(1).click();
    await page.waitForURL(`${server.baseUrl}/lightning/o/Account/home`);
    await page.getByRole('combobox', { name: 'List view' }).waitFor();
    expect(await tabs.nth(1).getAttribute('aria-current')).toBe('page');
  });

  it('lists records in the view’s columns, sorts by a column header and pages by the page tokens', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const headers = await page.locator('.bo-table thead th').allInnerTexts();
    expect(headers.map((text) => text.replace(/[▲▼]/g, '').trim())).toEqual([
      'Contact Us Name',
      'Company Name',
      'City',
      'Country (display)',
    ]);
    const first = await rowNames(page);
    expect(first).toHaveLength(50);
    // The view's own order: by name, ascending.
    expect(await header(page, 'Contact Us Name').getAttribute('aria-sort')).toBe('ascending');
    expect(first).toEqual([...first].sort());
    // More records follow the page: the platform's "50+ items".
    expect(await page.getByRole('status').first().innerText()).toBe('50+ items · Sorted by Contact Us Name');

    // A click on a header sorts by its column, ascending, then descending.
    await header(page, 'City').getByRole('button', { name: 'City' }).click();
    await expect.poll(() => header(page, 'City').getAttribute('aria-sort')).toBe('ascending');
    await listShown(page);
    expect(await header(page, 'Contact Us Name').getAttribute('aria-sort')).toBe('none');
    expect(new URL(page.url()).searchParams.get('sortBy')).toBe('APT_City__c');
    const ascending = await columnValues(page, 'City');
    expect(await rowNames(page)).not.toEqual(first);
    await header(page, 'City').getByRole('button', { name: 'City' }).click();
    await expect.poll(() => header(page, 'City').getAttribute('aria-sort')).toBe('descending');
    await listShown(page);
    const descending = await columnValues(page, 'City');
    expect(descending).not.toEqual(ascending);
    expect(descending[0] >= ascending[0]).toBe(true);

    // Paging: the next page, then back, in the order chosen.
    const pages = page.getByRole('navigation', { name: 'Pages of the list' });
    expect(await pages.getByText('Previous page').getAttribute('aria-disabled')).toBe('true');
    const firstPage = await rowNames(page);
    await pages.getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('pageToken')).toBe('50');
    await listShown(page);
    const secondPage = await rowNames(page);
    expect(secondPage).toHaveLength(50);
    expect(secondPage.filter((name) => firstPage.includes(name))).toEqual([]);
    expect(new URL(page.url()).searchParams.get('sortBy')).toBe('-APT_City__c');
    await pages.getByRole('link', { name: 'Previous page' }).click();
    await expect.poll(() => rowNames(page)).toEqual(firstPage);
    // Back in the browser's history goes back a page too.
    await page.goBack();
    await expect.poll(() => rowNames(page)).toEqual(secondPage);
  });

  it('offers the object’s list views and opens the one chosen', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const picker = page.getByRole('combobox', { name: 'List view' });
    expect(await picker.locator('option').allInnerTexts()).toContain('Default Contacts');
    await picker.selectOption({ label: 'Default Contacts' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/filterName=DefaultContacts/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Default Contacts');
  });

  it('opens a record from its row: its name, its layout’s sections and their values', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const [name] = await rowNames(page);
    const [company] = await columnValues(page, 'Company Name');
    await page.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(new RegExp(`/lightning/r/${OBJECT}/\\w{18}/view$`));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
    const sections = page.getByRole('region');
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(
      expect.arrayContaining(['Information', 'Address']),
    );
    const information = sections.filter({ has: page.getByRole('heading', { name: 'Information', exact: true }) });
    const value = (label: string) =>
      information
        .locator('.bo-field')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd');
    expect(await value('Company Name').innerText()).toBe(company);
    expect(await value('Contact Us Name').innerText()).toBe(name);
    // A lookup shows the related record's name, not its id.
    const system = sections.filter({ has: page.getByRole('heading', { name: 'System Information', exact: true }) });
    const owner = system.locator('.bo-field').filter({ has: page.getByText('Owner', { exact: true }) });
    await expect.poll(() => owner.locator('dd').innerText()).toBe('Store Administrator');
    expect(await axeViolations(page)).toEqual([]);
    // The object's name goes back to its list.
    await page.getByRole('link', { name: 'Contact Us', exact: true }).last().click();
    await page.waitForURL(`${server.baseUrl}/lightning/o/${OBJECT}/home`);
  });

  it('says so when a record does not exist, or is not the user’s to see', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/a1C8d0000000zzzEAA/view`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Record not found');
    expect(await page.getByRole('alert').innerText()).toContain('doesn’t exist, or you don’t have access to it');
    expect(await axeViolations(page)).toEqual([]);
    // The API's answer to the unknown id (and the browser's report of it) is the one failure the page met.
    expect(watched.problems).toEqual([
      expect.stringMatching(/^40[04] .*\/ui-api\/record-ui\/a1C8d0000000zzzEAA/),
      expect.stringMatching(/^error: Failed to load resource: .* 40[04]/),
    ]);
    watched.problems.length = 0;
  });

  it('says when a list view has no records: a Standard User’s own, who owns none', async () => {
    await signedIn('standard');
    await page.goto(`${server.baseUrl}/lightning/o/${OBJECT}/list?filterName=MyContactUs`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('My Contact Us');
    await page.getByText('No items to display.').waitFor();
    expect(await page.locator('.bo-table tbody tr').count()).toBe(0);
    const pages = page.getByRole('navigation', { name: 'Pages of the list' });
    expect(await pages.getByRole('link').count()).toBe(0);
    expect(await page.getByRole('status').first().innerText()).toBe('0 items · Sorted by Contact Us Name');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('says it is loading the records, and why they could not be loaded', async () => {
    await signedIn();
    // Opened from another screen: the records are the browser's to ask for, not in the document.
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/a1C8d0000000001EAA/view`);
    await page.locator('.bo-record .bo-section').first().waitFor();
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/ui-api/list-records/**', async (route) => {
      await held;
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'INVALID_FIELD', message: 'The list cannot be read now.' }]),
      });
    });
    await openInBackOffice(page, LIST);
    await page.getByText('Loading the records…').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('All Contact Us');
    release();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The records could not be loaded. The list cannot be read now.');
    expect(await page.locator('.bo-table').count()).toBe(0);
    // The refused call (and the browser's report of it) is the one failure the page met.
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/list-records\//),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('says it is loading a record, and why it could not be loaded', async () => {
    await signedIn();
    // Opened from the list: the record UI is the browser's to ask for, not in the document.
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/ui-api/record-ui/**', async (route) => {
      await held;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'FORBIDDEN', message: 'The record cannot be read now.' }]),
      });
    });
    await openInBackOffice(page, `/lightning/r/${OBJECT}/a1C8d0000000001EAA/view`);
    await page.getByRole('status').filter({ hasText: 'Loading the record…' }).waitFor();
    release();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The record could not be loaded. The record cannot be read now.');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^403 .*\/ui-api\/record-ui\/a1C8d0000000001EAA/),
      expect.stringMatching(/^error: Failed to load resource: .* 403/),
    ]);
    watched.problems.length = 0;
  });

  it('sends the user to sign in when the session ends while the page is open, to come back to the same page', async () => {
    const session = await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    // Signed out elsewhere: the next call the page makes is refused.
    const signOut = await fetch(`${server.baseUrl}${SESSION_PATH}`, { method: 'DELETE', headers: session.headers });
    expect(signOut.ok).toBe(true);
    await page.getByRole('navigation', { name: 'Pages of the list' }).getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/\/login\?/);
    expect(new URL(page.url()).searchParams.get('startURL')).toBe(`${LIST}&pageToken=50`);
    expect(watched.problems).toEqual([
      expect.stringMatching(/^401 .*\/ui-api\/list-records\//),
      expect.stringMatching(/^error: Failed to load resource: .* 401/),
    ]);
    watched.problems.length = 0;
  });

  it('passes axe on the list', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is usable by keyboard alone: Tab reaches the tabs, the column headers and the rows’ links, with the focus visible', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    // The tabs come with the nav items, the list view controls with the list's object info: both after the rows
    // may be shown.
    await page.getByRole('link', { name: 'Accounts', exact: true }).waitFor();
    await page.getByRole('button', { name: 'List view controls' }).waitFor();
    const reached: string[] = [];
    // The header's search and app launcher; each column's header holds its sort button, its wrap choice and its
    // edge (back-office-lists.test.ts).
    for (let presses = 0; presses < 27; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.what).not.toBe('body');
      expect(now.outlined, `the focus on ${now.what} shows`).toBe(true);
      reached.push(now.what);
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        'a: Skip to content',
        'a: Contact Us',
        'a: Accounts',
        'select: All Contact UsDefault ContactsMy Contact UsNorth American Arcline ContactsRecently Viewed',
        'button: List view controls',
        'button: Contact Us Name',
        'button: City',
        'a: CU-000001',
      ]),
    );
    expect(reached.indexOf('a: Contact Us')).toBeLessThan(reached.indexOf('button: Contact Us Name'));
    expect(reached.indexOf('button: Contact Us Name')).toBeLessThan(reached.indexOf('a: CU-000001'));

    // Enter on a header sorts by it; the focus stays on the header.
    await page.getByRole('button', { name: 'City' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header(page, 'City').getAttribute('aria-sort')).toBe('ascending');
    expect((await focused(page)).what).toBe('button: City');
    await page.keyboard.press('Space');
    await expect.poll(() => header(page, 'City').getAttribute('aria-sort')).toBe('descending');

    // Enter on a row's link opens the record.
    await listShown(page);
    await page.locator('.bo-table tbody a').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/lightning\/r\//);
    await page.getByRole('heading', { level: 2, name: 'Information', exact: true }).waitFor();
    // The link is gone with the list: the focus is on the new screen's main landmark, not the page's body.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ what: 'a: Contact Us', outlined: true });
  });

  it('works at 390 px wide: nothing wider than the window but the table, which scrolls in its box', async () => {
    await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const box = await page.locator('.bo-table-scroll').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('.bo-table tbody a').first().click();
    await page.getByRole('heading', { level: 2, name: 'Information', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    // One column of fields on a phone.
    const fields = await page
      .locator('.bo-section')
      .first()
      .locator('.bo-field')
      .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().x));
    expect(new Set(fields).size).toBe(1);
  });
});
