/**
 * The list views a user keeps, and Recently Viewed, in Chromium on every test database: a record opened in the
 * back office is first among the Recently Viewed, which says so when there is none; a list view created with
 * its name, given a filter (whose rows then match it), renamed, and deleted after a question; column widths
 * (by pointer and by keyboard) and wrapping kept as the user's preferences across a reload; no edit offered on
 * a view the user may not change; the list view shown exported as CSV; axe on each dialog; the controls by
 * keyboard alone; 390 px.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { readCsv, unescapeCell } from '../support/csv.ts';
import { type WatchedPage, usePageSession, axeViolations, openInBackOffice } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
const RECENT = `/lightning/o/${OBJECT}/list?filterName=__Recent`;
const CONTACTS = 60;

/** The list's rows: the text of each row's first cell, the record's name. */
function rowNames(page: Page): Promise<string[]> {
  return page.locator('.bo-table tbody tr > :first-child').allInnerTexts();
}

/** A column's values on the page shown, by its header's label. */
async function columnValues(page: Page, label: string): Promise<string[]> {
  const labels = await page.locator('.bo-table thead .bo-table__label').allInnerTexts();
  const index = labels.indexOf(label);
  expect(index, `a column ${label}`).toBeGreaterThanOrEqual(0);
  return page.locator(`.bo-table tbody tr > :nth-child(${index + 1})`).allInnerTexts();
}

/** Until the list shows records and is not loading another page or order. */
async function listShown(page: Page): Promise<void> {
  await page.locator('.bo-table tbody tr').first().waitFor();
  await expect.poll(() => page.locator('.bo-table').getAttribute('aria-busy')).toBe('false');
}

function header(page: Page, label: string) {
  return page.getByRole('columnheader', { name: label });
}

/** The list view controls' actions offered, opening the menu. */
async function controlsOffered(page: Page): Promise<string[]> {
  const toggle = page.getByRole('button', { name: 'List view controls' });
  if ((await toggle.count()) === 0) return [];
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const offered = await page.getByRole('list', { name: 'List view controls' }).getByRole('button').allInnerTexts();
  await page.keyboard.press('Escape');
  return offered;
}

async function control(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'List view controls' }).click();
  await page.getByRole('list', { name: 'List view controls' }).getByRole('button', { name, exact: true }).click();
}

function pickerLabels(page: Page): Promise<string[]> {
  return page.getByRole('combobox', { name: 'List view' }).locator('option').allInnerTexts();
}

/** What has the focus, and whether it shows. */
function focused(page: Page): Promise<{ what: string; outlined: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { what: 'body', outlined: false };
    const style = getComputedStyle(element);
    const name = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim();
    return {
      what: `${element.getAttribute('role') ?? element.tagName.toLowerCase()}: ${name}`,
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  });
}

describe.each(databases())('The back office’s list views in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: CONTACTS }, (session) => ({ server, watched, page } = session));

  async function signedIn(who: 'admin' | 'standard' = 'admin'): Promise<TestSession> {
    const session = await signIn(server, who);
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    // A step that waits in vain fails on its own line, well within the test's time.
    page.setDefaultTimeout(10_000);
    return session;
  }

  /** Opens a record from the list by its row's name, and waits for its page. */
  async function openRecord(name: string): Promise<void> {
    await page.getByRole('link', { name, exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(name);
  }

  it('shows a list view and a record page from the answers their document carries, asking for none of them', async () => {
    await signedIn();
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const list = [`/list-info/${OBJECT}`, `/list-info/${OBJECT}/AllContactUs`, `/list-records/${OBJECT}/AllContactUs`];
    for (const path of [...list, `/mru-list-info/${OBJECT}`, `/list-preferences/${OBJECT}/AllContactUs`])
      expect(
        asked.filter((one) => one.endsWith(`/ui-api${path}`)),
        path,
      ).toEqual([]);
    const recordId = await page.locator('.bo-table tbody tr a').first().getAttribute('href');
    asked.length = 0;
    await page.goto(`${server.baseUrl}${recordId}`);
    await page.locator('.bo-record .bo-section').first().waitFor();
    expect(asked.filter((one) => one.includes('/ui-api/record-ui/'))).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('asks for the named view’s records beside its list of views, not after it', async () => {
    await signedIn();
    // Opened from another screen: the view's queries are the browser's to ask for, not in the document.
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/a1C8d0000000001EAA/view`);
    await page.locator('.bo-record .bo-section').first().waitFor();
    // The list of views (list-info/{object}?pageSize=…) held back until the view's records have been asked for.
    let recordsAsked!: () => void;
    const asked = new Promise<void>((done) => (recordsAsked = done));
    page.on('request', (request) => {
      if (request.url().includes(`/list-records/${OBJECT}/AllContactUs`)) recordsAsked();
    });
    let heldBack = false;
    const listOfViews = (url: URL) => url.pathname.endsWith(`/list-info/${OBJECT}`);
    await page.route(listOfViews, async (route) => {
      heldBack = await Promise.race([
        asked.then(() => true),
        new Promise<boolean>((late) => setTimeout(late, 5000, false)),
      ]);
      await route.continue();
    });
    await openInBackOffice(page, LIST);
    await listShown(page);
    expect(heldBack, 'the records were asked for while the list of views was still on its way').toBe(true);
    await page.unroute(listOfViews);
  });

  it('shows a record just opened first among the Recently Viewed, and says when there is none', async () => {
    await signedIn('standard');
    await page.goto(`${server.baseUrl}${RECENT}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Recently Viewed');
    await page.getByText('You haven’t viewed any of these records recently.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await signedIn('admin');
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const [first, second] = await rowNames(page);
    expect(await pickerLabels(page)).toContain('Recently Viewed');
    await openRecord(first);
    await page.goBack();
    await listShown(page);
    await openRecord(second);
    // From the record page to the Recently Viewed list, through the picker, as a user goes.
    await page.getByRole('link', { name: 'Contact Us', exact: true }).last().click();
    await listShown(page);
    await page.getByRole('combobox', { name: 'List view' }).selectOption({ label: 'Recently Viewed' });
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/filterName=__Recent/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Recently Viewed');
    await expect.poll(() => rowNames(page)).toEqual([second, first]);
    // The most recently used first: opening the first again moves it up.
    await openRecord(first);
    await page.goBack();
    await expect.poll(() => rowNames(page)).toEqual([first, second]);
    // Nobody edits the Recently Viewed list: its controls offer only a new list view.
    expect(await controlsOffered(page)).toEqual(['New']);
  });

  it('creates a list view, and gives it a filter whose rows match it', async () => {
    const session = await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    const cities = await columnValues(page, 'City');
    const city = cities.find((value) => value !== '')!;

    await control(page, 'New');
    const dialog = page.getByRole('dialog', { name: 'New list view' });
    await dialog.waitFor();
    expect(await focused(page)).toMatchObject({ what: 'input: ' });
    await dialog.getByLabel('List name').fill('Contacts by City');
    expect(await dialog.getByLabel('List API name').inputValue()).toBe('Contacts_by_City');
    expect(await dialog.getByRole('radio').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/filterName=Contacts_by_City/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Contacts by City');
    await listShown(page);
    expect(await pickerLabels(page)).toContain('Contacts by City');
    // The user's own view: every control offered.
    expect(await controlsOffered(page)).toEqual(['New', 'Rename', 'Edit filters', 'Delete']);

    // A filter: City equals the city of a record.
    await control(page, 'Edit filters');
    const filters = page.getByRole('dialog', { name: 'Filters of Contacts by City' });
    await filters.getByText('This list view has no filters').waitFor();
    await filters.getByRole('button', { name: 'Add filter' }).click();
    await filters.getByLabel('Field').selectOption({ label: 'City' });
    const operators = await filters.getByLabel('Operator').locator('option').allInnerTexts();
    expect(operators).toEqual(expect.arrayContaining(['equals', 'not equal to', 'contains', 'starts with']));
    // No value: said beside the row, nothing sent.
    await filters.getByLabel('Operator').selectOption({ label: 'contains' });
    await filters.getByRole('button', { name: 'Save' }).click();
    await filters.getByText('Enter a value.').waitFor();
    await filters.getByLabel('Operator').selectOption({ label: 'equals' });
    await filters.getByLabel('Value').fill(city);
    expect(await axeViolations(page)).toEqual([]);
    await filters.getByRole('button', { name: 'Save' }).click();
    await filters.waitFor({ state: 'detached' });
    await page.getByText(`Filtered by City equals ${city}`).waitFor();
    await expect.poll(async () => new Set(await columnValues(page, 'City'))).toEqual(new Set([city]));
    // As many rows as the object has records of that city, by the API's own count.
    const all = await fetch(
      `${server.baseUrl}/services/data/v65.0/ui-api/list-records/${OBJECT}/AllContactUs?pageSize=200&fields=${OBJECT}.APT_City__c`,
      { headers: session.headers },
    );
    const { records } = (await all.json()) as { records: { fields: { APT_City__c: { value: string } } }[] };
    const expected = records.filter((record) => record.fields.APT_City__c.value === city).length;
    expect(expected).toBeGreaterThan(0);
    expect(await rowNames(page)).toHaveLength(expected);
    // The focus is back on the controls.
    expect((await focused(page)).what).toBe('button: List view controls');
  });

  it('renames a list view of the user’s, and deletes it after asking', async () => {
    const session = await signedIn();
    // The user's own view, made through the API: its making in the page is the test above.
    const made = await fetch(`${server.baseUrl}/services/data/v65.0/ui-api/list-info/${OBJECT}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        label: 'Contacts to rename',
        listViewApiName: 'Contacts_to_rename',
        includeDefaultAttributes: true,
      }),
    });
    expect(made.status).toBe(201);
    await page.goto(`${server.baseUrl}/lightning/o/${OBJECT}/list?filterName=Contacts_to_rename`);
    await listShown(page);

    // Rename.
    await control(page, 'Rename');
    const rename = page.getByRole('dialog', { name: 'Rename list view' });
    expect(await rename.getByLabel('List name').inputValue()).toBe('Contacts to rename');
    await rename.getByLabel('List name').fill('');
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.getByText('Enter a name for the list view.').waitFor();
    await rename.getByLabel('List name').fill('One City');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('One City');
    await expect.poll(() => pickerLabels(page)).toContain('One City');
    expect(new URL(page.url()).searchParams.get('filterName')).toBe('Contacts_to_rename');

    // Delete asks first; Cancel keeps the view.
    await control(page, 'Delete');
    const question = page.getByRole('dialog', { name: 'Delete list view' });
    expect(await question.innerText()).toContain('Are you sure you want to delete the list view One City?');
    expect((await focused(page)).what).toBe('button: Cancel');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'detached' });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('One City');
    await control(page, 'Delete');
    await question.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/o/${OBJECT}/home`);
    await listShown(page);
    expect(await pickerLabels(page)).not.toContain('One City');
    // Gone on the server too.
    await page.goto(`${server.baseUrl}/lightning/o/${OBJECT}/list?filterName=Contacts_to_rename`);
    await page.getByRole('heading', { name: 'List view not found' }).waitFor();
    // The address names the view, so the page asks for it beside the list of views: each answers 404.
    await expect.poll(() => watched.problems.length).toBe(6);
    const answered = watched.problems.filter((problem) => problem.startsWith('404 '));
    expect(answered.map((problem) => new URL(problem.slice(4)).pathname).sort()).toEqual(
      ['list-info', 'list-preferences', 'list-records'].map(
        (path) => `/services/data/v65.0/ui-api/${path}/${OBJECT}/Contacts_to_rename`,
      ),
    );
    expect(watched.problems.filter((problem) => !answered.includes(problem))).toEqual(
      Array(3).fill('error: Failed to load resource: the server responded with a status of 404 (Not Found)'),
    );
    watched.problems.length = 0;
  });

  it('keeps column widths, set by pointer and by keyboard, across a reload', async () => {
    await signedIn();
    const view = `/lightning/o/${OBJECT}/list?filterName=NorthAmericanArclineContacts`;
    await page.goto(`${server.baseUrl}${view}`);
    await listShown(page);
    const edge = (label: string) => header(page, label).getByRole('separator', { name: 'Column width' });
    const widthOf = async (label: string) => Number(await edge(label).getAttribute('aria-valuenow'));
    const boxWidth = async (label: string) => (await header(page, label).boundingBox())!.width;
    await expect.poll(() => edge('City').getAttribute('aria-disabled')).toBeNull();
    const city = await widthOf('City');
    const company = await widthOf('Company Name');

    // By keyboard: the arrows move the edge, and each step is saved.
    const saved = () =>
      page.waitForResponse(
        (response) => response.url().includes('/list-preferences/') && response.request().method() === 'PATCH',
      );
    await edge('City').focus();
    expect(await focused(page)).toEqual({ what: 'separator: Column width', outlined: true });
    let save = saved();
    await page.keyboard.press('ArrowRight');
    await save;
    save = saved();
    await page.keyboard.press('Shift+ArrowRight');
    await save;
    expect(await widthOf('City')).toBe(city + 60);
    expect(Math.round(await boxWidth('City'))).toBe(city + 60);

    // By pointer: a drag of the edge.
    const box = (await edge('Company Name').boundingBox())!;
    save = saved();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 40, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await save;
    expect(await widthOf('Company Name')).toBe(company - 40);

    await page.reload();
    await listShown(page);
    await expect.poll(() => widthOf('City')).toBe(city + 60);
    expect(await widthOf('Company Name')).toBe(company - 40);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('saves a list’s widths one after another, and keeps the width of a save that waits', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}/lightning/o/${OBJECT}/list?filterName=AllContactUs`);
    await listShown(page);
    const edge = header(page, 'City').getByRole('separator', { name: 'Column width' });
    const width = async () => Number(await edge.getAttribute('aria-valuenow'));
    await expect.poll(() => edge.getAttribute('aria-disabled')).toBeNull();
    const start = await width();
    // Each save is held before the browser gets its answer, until the test lets it go.
    const sent: number[] = [];
    const releases: (() => void)[] = [];
    await page.route('**/ui-api/list-preferences/**', async (route) => {
      if (route.request().method() !== 'PATCH') return route.continue();
      sent.push((route.request().postDataJSON() as { columnWidths: Record<string, number> }).columnWidths.APT_City__c);
      const answer = await route.fetch();
      await new Promise<void>((resolve) => releases.push(resolve));
      return route.fulfill({ response: answer });
    });
    await edge.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(width).toBe(start + 60);
    // The second save waits for the first's answer: sent at once, the two could reach the server in either
    // order, and the older width be kept.
    await expect.poll(() => sent).toEqual([start + 10]);
    await page.waitForTimeout(300);
    expect(sent).toEqual([start + 10]);

    // The first save answered while the second is on its way: the page still shows the later width, and
    // reads nothing that could undo it.
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/list-preferences/') && request.method() === 'GET') reads.push(request.url());
    });
    const firstAnswered = page.waitForResponse((response) => response.request().method() === 'PATCH');
    releases[0]();
    await firstAnswered;
    await expect.poll(() => sent).toEqual([start + 10, start + 60]);
    await page.waitForTimeout(200);
    expect(await width()).toBe(start + 60);
    expect(reads).toEqual([]);

    const secondAnswered = page.waitForResponse((response) => response.request().method() === 'PATCH');
    releases[1]();
    const secondAnswer = await secondAnswered;
    expect(secondAnswer.status(), await secondAnswer.text()).toBe(200);
    await page.unroute('**/ui-api/list-preferences/**');
    await page.reload();
    await listShown(page);
    await expect.poll(width).toBe(start + 60);
  });

  it('keeps a column’s wrapping across a reload, for that list view alone', async () => {
    await signedIn();
    const view = `/lightning/o/${OBJECT}/list?filterName=MyContactUs`;
    await page.goto(`${server.baseUrl}${view}`);
    await listShown(page);
    const saved = () =>
      page.waitForResponse(
        (response) => response.url().includes('/list-preferences/') && response.request().method() === 'PATCH',
      );
    await expect.poll(() => header(page, 'City').getByRole('button', { name: 'Wrap text' }).isEnabled()).toBe(true);
    // Wrapping: clipped until the user chooses to wrap.
    const wrap = header(page, 'City').getByRole('button', { name: 'Wrap text' });
    expect(await wrap.getAttribute('aria-pressed')).toBe('false');
    expect(await page.locator('.bo-table tbody td.bo-cell--clip').count()).toBeGreaterThan(0);
    const save = saved();
    await wrap.click();
    await save;
    expect(await wrap.getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await expect
      .poll(() => header(page, 'City').getByRole('button', { name: 'Wrap text' }).getAttribute('aria-pressed'))
      .toBe('true');
    const cityCells = await columnCellClasses(page, 'City');
    expect(new Set(cityCells)).toEqual(new Set(['bo-cell--wrap']));
    // Another view keeps its own.
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    await expect
      .poll(() => header(page, 'City').getByRole('button', { name: 'Wrap text' }).getAttribute('aria-pressed'))
      .toBe('false');
  });

  it('exports the list view shown as CSV, in the order shown, from the keyboard', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}&sortBy=-Name`);
    await listShown(page);
    const shown = await rowNames(page);
    expect(await axeViolations(page)).toEqual([]);
    // Reached with Tab from the controls beside it, and followed with Enter.
    await page.getByRole('button', { name: 'List view controls' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ what: 'a: Export All Contact Us as CSV', outlined: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`All Contact Us ${today}.csv`);
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [heading, ...records] = readCsv(bytes.toString('utf8').slice(1));
    expect(heading).toEqual(['Id', 'Name', 'APT_Company_Name__c', 'APT_City__c', 'APT_UI_Country__c']);
    expect(records).toHaveLength(CONTACTS);
    expect(records.slice(0, shown.length).map((record) => unescapeCell(record[1]))).toEqual(shown);
  });

  it('offers no edit of a list view the user may not change, and no Public view to a Standard User', async () => {
    await signedIn('standard');
    await page.goto(`${server.baseUrl}${LIST}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('All Contact Us');
    await expect.poll(() => controlsOffered(page)).toEqual(['New']);
    await control(page, 'New');
    const dialog = page.getByRole('dialog', { name: 'New list view' });
    expect(await dialog.getByRole('radio').allInnerTexts()).toHaveLength(1);
    expect(await dialog.getByText('Only I can see this list view').count()).toBe(1);
    expect(await dialog.getByText('All users can see this list view').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The administrator may change the org's views.
    await signedIn('admin');
    await page.reload();
    await expect.poll(() => controlsOffered(page)).toEqual(['New', 'Rename', 'Edit filters', 'Delete']);
  });

  it('is usable by keyboard alone: the controls’ menu, a dialog that keeps the focus, Escape', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    await page.getByRole('button', { name: 'List view controls' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toEqual({ what: 'button: New', outlined: true });
    await page.keyboard.press('Escape');
    expect(await page.getByRole('list', { name: 'List view controls' }).count()).toBe(0);
    expect((await focused(page)).what).toBe('button: List view controls');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect((await focused(page)).what).toBe('button: Rename');
    await page.keyboard.press('Enter');
    const rename = page.getByRole('dialog', { name: 'Rename list view' });
    await rename.waitFor();
    // Tab goes round the dialog's controls: the name, Cancel, Save, the name again.
    const round: string[] = [];
    for (let presses = 0; presses < 3; presses++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.outlined, `the focus on ${now.what} shows`).toBe(true);
      round.push(now.what);
    }
    expect(round).toEqual(['button: Cancel', 'button: Save', 'input: ']);
    await page.keyboard.press('Escape');
    await rename.waitFor({ state: 'detached' });
    expect((await focused(page)).what).toBe('button: List view controls');
  });

  it('works at 390 px wide: the controls and the filter dialog fit the window', async () => {
    await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}${LIST}`);
    await listShown(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await control(page, 'Edit filters');
    const filters = page.getByRole('dialog', { name: 'Filters of All Contact Us' });
    await filters.getByRole('button', { name: 'Add filter' }).click();
    const box = (await filters.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const field = (await filters.getByLabel('Field').boundingBox())!;
    expect(field.x + field.width).toBeLessThanOrEqual(box.x + box.width);
    expect(await axeViolations(page)).toEqual([]);
    await filters.getByRole('button', { name: 'Cancel' }).click();
    expect(watched.problems).toEqual([]);
  });
});

/** The classes of a column's body cells, by its header's label. */
async function columnCellClasses(page: Page, label: string): Promise<string[]> {
  const labels = await page.locator('.bo-table thead .bo-table__label').allInnerTexts();
  const index = labels.indexOf(label);
  return page
    .locator(`.bo-table tbody tr > :nth-child(${index + 1})`)
    .evaluateAll((cells) => cells.map((cell) => cell.className));
}
