/**
 * A record page's highlights, collapsible sections and related lists in Chromium, on every test database: the
 * compact layout's fields under the record's name; a section collapsed (by mouse and by keyboard) stays so
 * after a reload, saved as the layout user state, and one whose state could not be saved is put back; the
 * related lists' cards with their counts ("10+" beyond the count asked) and first records, each a link to its
 * record; "View All" opens the related list's page, with its columns, sorting and paging by page tokens; the
 * record shown before its related lists come; a related list that could not be loaded said so; axe clean; by
 * keyboard alone with the focus visible; at 390 px wide.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const RECORD_API = '/services/data/v65.0/ui-api/records';
/** Contacts of the seeded account: more than a card counts (10), and more than a page of its related list (50). */
const CONTACTS = 55;

/** The values shown in a block of label and value pairs, as "label: value". */
function pairs(page: Page, selector: string): Promise<string[]> {
  return page
    .locator(selector)
    .evaluateAll((blocks) =>
      blocks.map(
        (block) =>
          `${block.querySelector('dt')?.textContent?.replace(/:$/, '')}: ${block.querySelector('dd')?.textContent}`,
      ),
    );
}

/** A card of the record page's related lists, by its related list's label. */
function card(page: Page, label: string) {
  return page
    .locator('.bo-related-list')
    .filter({ has: page.getByRole('heading', { level: 3, name: label, exact: true }) });
}

/** The related list page's rows: the text of each row's first cell. */
function rowNames(page: Page): Promise<string[]> {
  return page.locator('.bo-table tbody tr > :first-child').allInnerTexts();
}

async function tableShown(page: Page): Promise<void> {
  await page.locator('.bo-table tbody tr').first().waitFor();
  await expect.poll(() => page.locator('.bo-table').getAttribute('aria-busy')).toBe('false');
}

/** What has the focus, and whether it shows. */
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

describe.each(databases())('A record’s highlights, sections and related lists in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 20 }, (session) => ({ server, watched, page } = session));

  let accountId: string;
  let accountPage: string;

  async function created(session: TestSession, apiName: string, fields: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName, fields }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  beforeAll(async () => {
    const admin = await signIn(server, 'admin');
    accountId = await created(admin, 'Account', {
      Name: 'Harbourline Electrical Wholesale',
      Type: 'Distributor',
      Phone: '902-555-0100',
      Website: 'https://harbourline.example',
      BillingCity: 'Halifax',
    });
    accountPage = `/lightning/r/Account/${accountId}/view`;
    // Named so that their order by name is their number; their titles run the other way round.
    const contact = (number: number) => {
      const two = String(number).padStart(2, '0');
      return created(admin, 'Contact', {
        LastName: `Branch Office ${two}`,
        Title: `Site ${String(CONTACTS + 1 - number).padStart(2, '0')}`,
        Email: `branch${two}@harbourline.example`,
        AccountId: accountId,
      });
    };
    // A few at a time: quicker than one by one, without a burst of 55.
    for (let first = 1; first <= CONTACTS; first += 5)
      await Promise.all([0, 1, 2, 3, 4].filter((n) => first + n <= CONTACTS).map((n) => contact(first + n)));
  });

  async function signedIn(): Promise<TestSession> {
    const session = await signIn(server, 'admin');
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    return session;
  }

  async function recordShown(): Promise<void> {
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Harbourline Electrical Wholesale');
  }

  it('shows the compact layout’s fields as highlights under the record’s name', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    const highlights = page.getByRole('region', { name: 'Highlights' });
    await highlights.waitFor();
    // The compact layout's fields but the name, which is the heading; the owner by name once it is known.
    await expect
      .poll(() => pairs(page, '.bo-highlights__field'))
      .toEqual([
        'Account Type: Distributor',
        'Account Phone: 902-555-0100',
        'Website: https://harbourline.example',
        'Account Owner: Store Administrator',
      ]);
    // Fields the Full layout has and the compact one has not are not highlighted.
    expect(await highlights.getByText('Billing City').count()).toBe(0);
  });

  it('collapses a collapsible section, which stays collapsed after a reload, and expands it by keyboard', async () => {
    const session = await signedIn();
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    const toggle = page.getByRole('button', { name: 'Address Information' });
    const address = page.getByRole('region', { name: 'Address Information' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await address.getByText('Billing City').isVisible()).toBe(true);
    // A section the layout does not make collapsible has no button.
    expect(await page.getByRole('button', { name: 'Account Information' }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 2, name: 'Account Information' }).count()).toBe(1);

    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/layout/Account/user-state'),
    );
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await address.getByText('Billing City').isVisible()).toBe(false);
    expect((await saved).status()).toBe(200);
    // Saved as the layout user state.
    const state = await fetch(
      `${server.baseUrl}/services/data/v65.0/ui-api/layout/Account/user-state?layoutType=Full&mode=View&recordTypeId=012000000000000AAA`,
      { headers: session.headers },
    );
    const sections = ((await state.json()) as { sectionUserStates: Record<string, { collapsed: boolean }> })
      .sectionUserStates;
    expect(Object.values(sections).filter((section) => section.collapsed)).toHaveLength(1);

    await page.reload();
    await recordShown();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await address.getByText('Billing City').isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: Enter on the focused button expands it again, and that is kept too.
    await toggle.focus();
    expect(await focused(page)).toEqual({ what: 'button: Address Information', outlined: true });
    const savedAgain = page.waitForResponse((response) => response.request().method() === 'PATCH');
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await savedAgain;
    await page.reload();
    await recordShown();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await address.getByText('Billing City').isVisible()).toBe(true);
  });

  it('puts a section back, and says so, when its state could not be saved', async () => {
    await signedIn();
    await page.route('**/ui-api/layout/Account/user-state**', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify([{ errorCode: 'INVALID_INPUT', message: 'The state cannot be saved now.' }]),
          })
        : route.continue(),
    );
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    const toggle = page.getByRole('button', { name: 'System Information' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await toggle.click();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The section could not be kept collapsed or expanded for your next visit.');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/layout\/Account\/user-state/),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('shows the related lists with their counts and first records, each a link to its record', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    const related = page.getByRole('region', { name: 'Related', exact: true });
    await expect
      .poll(() => related.getByRole('heading', { level: 3 }).allInnerTexts())
      .toEqual(['Contacts (10+)', 'Cases (0)', 'Open Cases (0)', 'Child Accounts (0)']);
    const contacts = card(page, 'Contacts (10+)');
    // The first six, in the related list's own order (by name), with its other columns.
    const links = contacts.getByRole('listitem').getByRole('link');
    await expect
      .poll(() => links.allInnerTexts())
      .toEqual([1, 2, 3, 4, 5, 6].map((number) => `Branch Office 0${number}`));
    expect(await pairs(page, '.bo-related-list__record >> nth=0 >> .bo-related-list__field')).toEqual([
      'Title: Site 55',
      'Email: branch01@harbourline.example',
      'Business Phone: No value',
    ]);
    expect(await links.first().getAttribute('href')).toMatch(/^\/lightning\/r\/Contact\/003\w{15}\/view$/);
    expect(await card(page, 'Cases (0)').getByText('No items to display.').count()).toBe(1);
    expect(await card(page, 'Cases (0)').getByRole('link').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // A row's link opens the related record's page.
    await links.first().click();
    await page.waitForURL(/\/lightning\/r\/Contact\/003\w{15}\/view$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Branch Office 01');
  });

  it('counts exactly when there are no more than the count asked: a demo account’s three contacts', async () => {
    const session = await signedIn();
    const accounts = await fetch(
      `${server.baseUrl}/services/data/v65.0/ui-api/list-records/Account/AllAccounts?pageSize=50`,
      { headers: session.headers },
    );
    const lakeshore = (
      (await accounts.json()) as { records: { id: string; fields: { Name: { value: string } } }[] }
    ).records.find((record) => record.fields.Name.value === 'Lakeshore Switchgear Group');
    await page.goto(`${server.baseUrl}/lightning/r/Account/${lakeshore!.id}/view`);
    const contacts = card(page, 'Contacts (3)');
    // The count and the records come in calls of their own.
    await expect.poll(() => contacts.getByRole('listitem').count()).toBe(3);
    expect(await contacts.getByRole('link', { name: 'View All Contacts' }).count()).toBe(1);
  });

  it('opens a related list’s own page from View All: its columns, sorted by a header, paged by page tokens', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    await card(page, 'Contacts (10+)').getByRole('link', { name: 'View All Contacts' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/Account/${accountId}/related/Contacts/view`);
    await tableShown(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Contacts');
    const breadcrumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    await expect
      .poll(() => breadcrumbs.getByRole('link').allInnerTexts())
      .toEqual(['Accounts', 'Harbourline Electrical Wholesale']);
    const headers = await page.locator('.bo-table thead th').allInnerTexts();
    expect(headers.map((text) => text.replace(/[▲▼]/g, '').trim())).toEqual([
      'Full Name',
      'Title',
      'Email',
      'Business Phone',
    ]);
    const first = await rowNames(page);
    expect(first).toHaveLength(50);
    expect(first.slice(0, 2)).toEqual(['Branch Office 01', 'Branch Office 02']);
    expect(await page.getByRole('status').first().innerText()).toBe('50+ items · Sorted by Full Name');
    expect(await page.getByRole('columnheader', { name: 'Full Name' }).getAttribute('aria-sort')).toBe('ascending');
    expect(await axeViolations(page)).toEqual([]);

    // Sorted by Title, whose order is the names' the other way round.
    await page.getByRole('columnheader', { name: 'Title' }).getByRole('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sortBy')).toBe('Title');
    await expect.poll(() => rowNames(page).then((names) => names[0])).toBe('Branch Office 55');
    expect(await page.getByRole('columnheader', { name: 'Title' }).getAttribute('aria-sort')).toBe('ascending');

    // The next page: the last five; then back.
    const pages = page.getByRole('navigation', { name: 'Pages of the list' });
    expect(await pages.getByText('Previous page').getAttribute('aria-disabled')).toBe('true');
    await pages.getByRole('link', { name: 'Next page' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('pageToken')).toBe('50');
    await expect
      .poll(() => rowNames(page))
      .toEqual(['Branch Office 05', 'Branch Office 04', 'Branch Office 03', 'Branch Office 02', 'Branch Office 01']);
    expect(await page.getByRole('status').first().innerText()).toBe('5 items · Sorted by Title');
    expect(await pages.getByText('Next page').getAttribute('aria-disabled')).toBe('true');
    await pages.getByRole('link', { name: 'Previous page' }).click();
    await expect.poll(() => rowNames(page).then((names) => names[0])).toBe('Branch Office 55');

    // A row opens its record; the breadcrumb goes back to the parent.
    await page.goBack();
    await tableShown(page);
    await breadcrumbs.getByRole('link', { name: 'Harbourline Electrical Wholesale' }).click();
    await page.waitForURL(`${server.baseUrl}${accountPage}`);
    await recordShown();
  });

  it('shows the record before its related lists come, and says why a related list could not be loaded', async () => {
    await signedIn();
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/ui-api/related-list-records/batch/**', async (route) => {
      await held;
      await route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'INVALID_FIELD', message: 'The related records cannot be read now.' }]),
      });
    });
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    await page.getByRole('region', { name: 'Account Information' }).waitFor();
    const contacts = card(page, 'Contacts (10+)');
    await contacts.getByText('Loading the Contacts…').waitFor();
    release();
    await expect
      .poll(() => contacts.getByRole('alert').innerText())
      .toBe('The Contacts could not be loaded. The related records cannot be read now.');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/related-list-records\/batch\//),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('says when a record has no related lists, and when a related list does not exist', async () => {
    const session = await signedIn();
    // A Case's layout has no related lists (a Contact Us record has its History).
    const caseId = await created(session, 'Case', { Subject: 'A case with no related lists', Status: 'New' });
    await page.goto(`${server.baseUrl}/lightning/r/Case/${caseId}/view`);
    await page.getByText('This record has no related lists.').waitFor();

    await page.goto(`${server.baseUrl}/lightning/r/Account/${accountId}/related/Opportunities/view`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Related list not found');
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems.filter((problem) => !/404/.test(problem))).toEqual([]);
    watched.problems.length = 0;
  });

  it('is usable by keyboard alone: Tab reaches the section toggles, the related records and View All', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    await card(page, 'Contacts (10+)').getByRole('link', { name: 'View All Contacts' }).waitFor();
    const reached: string[] = [];
    for (let presses = 0; presses < 30 && reached.at(-1) !== 'a: View All Contacts'; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.what).not.toBe('body');
      expect(now.outlined, `the focus on ${now.what} shows`).toBe(true);
      reached.push(now.what);
    }
    expect(reached).toEqual(
      expect.arrayContaining([
        'button: Address Information',
        'button: System Information',
        'a: Branch Office 01',
        'a: View All Contacts',
      ]),
    );
    expect(reached.indexOf('button: System Information')).toBeLessThan(reached.indexOf('a: Branch Office 01'));
    // Enter on View All opens the related list's page.
    await page.getByRole('link', { name: 'View All Contacts' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/related\/Contacts\/view$/);
    await tableShown(page);
  });

  it('works at 390 px wide: the record page and the related list page are no wider than the window', async () => {
    await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}${accountPage}`);
    await recordShown();
    await card(page, 'Contacts (10+)').getByRole('link', { name: 'View All Contacts' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'View All Contacts' }).click();
    await tableShown(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const box = await page.locator('.bo-table-scroll').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  });
});
