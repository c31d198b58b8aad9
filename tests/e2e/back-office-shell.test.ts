/**
 * The back office's header in Chromium, on every test database: the search box finds records across objects
 * (a Contact Us representative and an account created for the test, by name), grouped by object with counts,
 * each a link to its record; no results said so; a term too short said so without a call; the results'
 * loading and error states; the app launcher lists the user's apps, and choosing one selects it (remembered)
 * and shows its tabs, the user's own arrangement first; axe clean; usable by keyboard alone with the focus
 * visible; at 390 px wide.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
const RECORD_API = '/services/data/v65.0/ui-api/records';
const APPS_API = '/services/data/v65.0/ui-api/apps';
const CONSOLE_APP = '02u8d0000000001AAA';
/** A word no demo record holds: the records the test creates are the only ones it finds. */
const WORD = 'Quillfeather';

/** What has the focus, and whether it shows. */
function focused(page: Page): Promise<{ what: string; outlined: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { what: 'body', outlined: false };
    const style = getComputedStyle(element);
    const label = element instanceof HTMLInputElement ? (element.labels?.[0]?.textContent ?? '') : '';
    return {
      what: `${element.tagName.toLowerCase()}: ${(label || element.textContent || '').trim()}`,
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  });
}

function tabLabels(page: Page): Promise<string[]> {
  return page.getByRole('navigation', { name: 'Tabs' }).getByRole('link').allInnerTexts();
}

describe.each(databases())('The back office’s search and app launcher in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 60 }, (session) => ({ server, watched, page } = session));

  async function signedIn(who: 'admin' | 'standard' = 'admin'): Promise<TestSession> {
    const session = await signIn(server, who);
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    return session;
  }

  async function created(session: TestSession, apiName: string, fields: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName, fields }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** Makes an app the user's selected app again, as the API does, so that each test starts from it. */
  async function selected(session: TestSession, appId: string): Promise<void> {
    const response = await fetch(`${server.baseUrl}${APPS_API}/${appId}`, {
      method: 'PATCH',
      headers: session.headers,
    });
    expect(response.status).toBe(200);
  }

  /** Each call to the search operation the page makes. */
  function searchCalls(): string[] {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/ui-api/search/results')) calls.push(request.url());
    });
    return calls;
  }

  async function searchFor(term: string): Promise<void> {
    const box = page.getByRole('searchbox', { name: 'Search the records' });
    await box.fill(term);
    await box.press('Enter');
  }

  it('finds records by name across objects, grouped by object with counts, each a link to its record', async () => {
    const session = await signedIn();
    const contactId = await created(session, OBJECT, {
      APT_Company_Name__c: `${WORD} Relay Works`,
      APT_City__c: 'Madison',
      APT_Email__c: 'sales@quillfeather.example',
    });
    await created(session, 'Account', { Name: `${WORD} Holdings`, Phone: '608-555-0101' });
    await page.goto(`${server.baseUrl}${LIST}`);
    await page.locator('.bo-table tbody tr').first().waitFor();
    await searchFor(WORD.toLowerCase());
    await page.waitForURL(`${server.baseUrl}/lightning/search?searchTerm=${WORD.toLowerCase()}`);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe(`Search results for “${WORD.toLowerCase()}”`);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(['Contact Us (1)', 'Accounts (1)']);
    expect(await page.getByRole('status').first().innerText()).toBe('Contact Us (1) · Accounts (1)');

    const contacts = page.getByRole('region', { name: 'Contact Us (1)' });
    // The answer's columns, labelled from the object's metadata.
    expect(await contacts.locator('thead th').allInnerTexts()).toEqual([
      'Contact Us Name',
      'Company Name',
      'City',
      'Primary State/Province',
      'Country',
      'Phone',
    ]);
    const row = contacts.locator('tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').first().innerText()).toBe(`${WORD} Relay Works`);
    expect(await row.locator('th').innerText()).toMatch(/^CU-\d{6}$/);
    // The matched word is marked.
    expect(await row.locator('mark').allInnerTexts()).toEqual([WORD]);
    const accounts = page.getByRole('region', { name: 'Accounts (1)' });
    expect(await accounts.locator('tbody th').innerText()).toBe(`${WORD} Holdings`);
    expect(await accounts.locator('thead th').first().innerText()).toBe('Account Name');
    // The search box keeps the term.
    expect(await page.getByRole('searchbox', { name: 'Search the records' }).inputValue()).toBe(WORD.toLowerCase());
    expect(await axeViolations(page)).toEqual([]);

    // The record's name opens its page.
    await row.getByRole('link').click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${contactId}/view`);
    await page.getByRole('heading', { level: 2, name: 'Information', exact: true }).waitFor();
    // Back is the results again.
    await page.goBack();
    await expect
      .poll(() => page.getByRole('heading', { level: 2 }).allInnerTexts())
      .toEqual(['Contact Us (1)', 'Accounts (1)']);
  });

  it('says when nothing matches', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}/lightning/search?searchTerm=zzqxvw`);
    await page.getByText('No results for “zzqxvw”.').waitFor();
    expect(await page.locator('.bo-table').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('says a term is too short, and asks the server nothing', async () => {
    await signedIn();
    const calls = searchCalls();
    // The address with a short term says so.
    await page.goto(`${server.baseUrl}/lightning/search?searchTerm=a`);
    await page.getByText('Enter at least 2 characters to search.').waitFor();
    // So does the search box, beside itself.
    await searchFor(' a ');
    const problem = page.getByRole('alert');
    await expect.poll(() => problem.innerText()).toBe('Enter at least 2 characters to search.');
    const box = page.getByRole('searchbox', { name: 'Search the records' });
    expect(await box.getAttribute('aria-invalid')).toBe('true');
    expect(await box.getAttribute('aria-describedby')).toBe(await problem.getAttribute('id'));
    expect(new URL(page.url()).search).toBe('?searchTerm=a');
    expect(await axeViolations(page)).toEqual([]);
    // Typing again clears the message.
    await box.press('b');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(calls).toEqual([]);
  });

  it('says it is loading the results, and why they could not be loaded', async () => {
    await signedIn();
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/ui-api/search/results**', async (route) => {
      await held;
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'INVALID_SEARCH', message: 'The search cannot be run now.' }]),
      });
    });
    await page.goto(`${server.baseUrl}/lightning/search?searchTerm=north`);
    await page.getByText('Loading the search results…').waitFor();
    release();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The search results could not be loaded. The search cannot be run now.');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/search\/results/),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('lists the user’s apps, and choosing one selects it, shows its tabs and is remembered', async () => {
    const session = await signedIn();
    try {
      await page.goto(`${server.baseUrl}${LIST}`);
      await expect.poll(() => tabLabels(page)).toEqual(['Contact Us', 'Accounts']);
      const launcher = page.getByRole('button', { name: 'App Launcher' });
      expect(await launcher.getAttribute('aria-expanded')).toBe('false');
      await launcher.click();
      expect(await launcher.getAttribute('aria-expanded')).toBe('true');
      const apps = page.locator('.bo-apps__list').getByRole('button');
      await apps.first().waitFor();
      expect(await apps.allInnerTexts()).toEqual(['Storefront Console', 'Sales', 'Store Administration']);
      expect(await apps.filter({ hasText: 'Storefront Console' }).getAttribute('aria-current')).toBe('true');
      expect(await axeViolations(page)).toEqual([]);

      await apps.filter({ hasText: 'Store Administration' }).click();
      // Its first object's tab opens; its web page is a tab too; its Home has no screen here.
      await page.waitForURL(`${server.baseUrl}/lightning/o/User/home`);
      await expect.poll(() => tabLabels(page)).toEqual(['Users', 'Contact Us', 'Files', 'Contact Us Page']);
      expect(await page.locator('.bo-header__app').innerText()).toBe('Store Administration');
      expect(await launcher.getAttribute('aria-expanded')).toBe('false');
      // The platform remembers the choice: the next page load opens the same app.
      await page.goto(`${server.baseUrl}/lightning`);
      await page.waitForURL(`${server.baseUrl}/lightning/o/User/home`);
      await expect.poll(() => page.locator('.bo-header__app').innerText()).toBe('Store Administration');
    } finally {
      await selected(session, CONSOLE_APP);
    }
  });

  it('shows a user’s own arrangement of an app’s items as its tabs', async () => {
    const session = await signedIn('standard');
    try {
      await page.goto(`${server.baseUrl}${LIST}`);
      await page.getByRole('button', { name: 'App Launcher' }).click();
      const apps = page.locator('.bo-apps__list').getByRole('button');
      await apps.first().waitFor();
      // A Standard User may not use Store Administration.
      expect(await apps.allInnerTexts()).toEqual(['Storefront Console', 'Sales']);
      await apps.filter({ hasText: 'Sales' }).click();
      await page.waitForURL(`${server.baseUrl}/lightning/o/Contact/home`);
      // The app's items are Home, Accounts, Contacts and Cases; this user arranged Home, Contacts and Accounts.
      await expect.poll(() => tabLabels(page)).toEqual(['Contacts', 'Accounts']);
      expect(
        await page.getByRole('navigation', { name: 'Tabs' }).getByRole('link').first().getAttribute('aria-current'),
      ).toBe('page');
    } finally {
      await selected(session, CONSOLE_APP);
    }
  });

  it('is usable by keyboard alone: the launcher, its apps, Escape, the search box and the results', async () => {
    const session = await signedIn();
    await created(session, OBJECT, { APT_Company_Name__c: 'Keyboardia Switchgear', APT_City__c: 'Madison' });
    try {
      await page.goto(`${server.baseUrl}${LIST}`);
      await page.locator('.bo-table tbody tr').first().waitFor();
      await expect.poll(() => tabLabels(page)).toEqual(['Contact Us', 'Accounts']);
      const reached: string[] = [];
      for (let presses = 0; presses < 7; presses++) {
        await page.keyboard.press('Tab');
        const now = await focused(page);
        expect(now.outlined, `the focus on ${now.what} shows`).toBe(true);
        reached.push(now.what);
      }
      expect(reached).toEqual([
        'a: Skip to content',
        'button: ⠿App Launcher',
        'a: Contact Us',
        'a: Accounts',
        'input: Search the records',
        'button: Search',
        'a: Storefront',
      ]);

      // Enter opens the launcher with the focus on the selected app; Escape closes it, the focus back on the button.
      const launcher = page.getByRole('button', { name: 'App Launcher' });
      await launcher.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toEqual({ what: 'button: Storefront Console', outlined: true });
      await page.keyboard.press('Escape');
      expect(await launcher.getAttribute('aria-expanded')).toBe('false');
      expect((await focused(page)).what).toBe('button: ⠿App Launcher');
      // Space opens it; Tab to an app, Enter chooses it.
      await page.keyboard.press('Space');
      await expect.poll(() => focused(page)).toEqual({ what: 'button: Storefront Console', outlined: true });
      await page.keyboard.press('Tab');
      expect(await focused(page)).toEqual({ what: 'button: Sales', outlined: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.baseUrl}/lightning/o/Account/home`);
      await expect.poll(() => tabLabels(page)).toEqual(['Accounts', 'Contacts', 'Cases']);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

      // The search box: type, Enter; Tab reaches the result's link, Enter opens it.
      await page.getByRole('searchbox', { name: 'Search the records' }).focus();
      await page.keyboard.type('keyboardia');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Contact Us (1)' }).waitFor();
      for (let presses = 0; presses < 6 && !(await focused(page)).what.startsWith('a: CU-'); presses++)
        await page.keyboard.press('Tab');
      const link = await focused(page);
      expect(link.what).toMatch(/^a: CU-\d{6}$/);
      expect(link.outlined).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/lightning\/r\/APT_Contact_Us__c\/\w{18}\/view$/);
    } finally {
      await selected(session, CONSOLE_APP);
    }
  });

  it('works at 390 px wide: the header, the open launcher and the results fit the window', async () => {
    const session = await signedIn();
    await created(session, OBJECT, { APT_Company_Name__c: 'Narrowfield Panel Supply', APT_City__c: 'Madison' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}/lightning/search?searchTerm=narrowfield`);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const box = await page.getByRole('searchbox', { name: 'Search the records' }).boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'App Launcher' }).click();
    await page.locator('.bo-apps__list').getByRole('button').first().waitFor();
    const panel = await page.locator('.bo-apps__panel').boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});
