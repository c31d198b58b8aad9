/**
 * The import of a CSV file of Contact Us records in the back office, in Chromium on every test database, against
 * the real routes: reached from a list view's Import, a file of four rows (new, changed, unchanged, invalid)
 * reviewed (the totals, a change "old → new", an invalid row's reason), a column that maps to nothing mapped to
 * its field in the select and the mapping saved, reviewed again, the report downloaded as CSV, committed with
 * its progress to the end and its report, then the changed record's history showing the import's changes; the
 * same file reviewed once more is all unchanged. The main path by keyboard alone; axe at each step. Then the
 * routes' refusals (an empty file, a file that is not CSV) said as alerts with the form kept, and all or
 * nothing with an invalid row explained on the Import button.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../support/csv.ts';
import { databases, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
const IMPORT = `/lightning/o/${OBJECT}/import`;
const RECORD_API = '/services/data/v65.0/ui-api/records';

/** The two records the file finds by company and e-mail: the first it changes, the second it leaves as it is. */
const CHANGED = {
  APT_Company_Name__c: 'Fjord Breaker Supply',
  APT_Email__c: 'ops@fjord-breaker.example',
  APT_Phone__c: '555 0100',
  APT_City__c: 'Sitka',
};
const UNCHANGED = {
  APT_Company_Name__c: 'Harbor Light Traders',
  APT_Email__c: 'desk@harbor-light.example',
  APT_Phone__c: '555 0200',
  APT_City__c: 'Portland',
};

/**
 * Line 2 changes the first record (its phone; its town too, once Town is mapped to City), line 3 is the second
 * as it is, line 4 is new, line 5 has an e-mail that is none. "Town" is neither a label nor an API name.
 */
const FILE = [
  'Company Name,Email,Phone,Town',
  'Fjord Breaker Supply,ops@fjord-breaker.example,555 0199,Juneau',
  'Harbor Light Traders,desk@harbor-light.example,555 0200,Portland',
  'Tidewater Rigging,hello@tidewater-rigging.example,555 0300,Ketchikan',
  'Cape Anchor Works,not-an-email,555 0400,Kodiak',
  '',
].join('\r\n');

/** What has the focus: its tag or role, and its name or text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    const labelled = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null;
    const name = element.getAttribute('aria-label') ?? labelled ?? (element.textContent ?? '').trim();
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}: ${name.trim()}`;
  });
}

/** Presses Tab until the focus is on the element described (as focused() says it), at most 40 times. */
async function tabTo(page: Page, target: string): Promise<void> {
  for (let step = 0; step < 40; step++) {
    if ((await focused(page)) === target) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}; the focus is on ${await focused(page)}`);
}

/** A section's totals: each label with its number. */
async function totalsOf(page: Page, section: string): Promise<Record<string, number>> {
  const items = page.locator(`${section} .bo-import__total`);
  const entries = await items.evaluateAll((elements) =>
    elements.map((element) => [
      element.querySelector('dt')!.textContent!.trim(),
      Number(element.querySelector('dd')!.textContent!.replace(/,/g, '')),
    ]),
  );
  return Object.fromEntries(entries) as Record<string, number>;
}

/** The review's row of a line of the file: its cells as text. */
async function reviewRow(page: Page, line: number): Promise<string[]> {
  const row = page.locator('.bo-import__rows tbody tr').filter({ has: page.locator(`th:text-is("${line}")`) });
  return row.locator('th, td').allInnerTexts();
}

describe.each(databases())('The back office’s CSV import in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 20 }, (session) => ({ server, watched, page } = session));

  async function signedIn(): Promise<TestSession> {
    const session = await signIn(server, 'admin');
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    page.setDefaultTimeout(15_000);
    // Playwright turns its interception of file choosers on when a first listener comes, without waiting for it,
    // and off when the last goes: a Space pressed at once after waitForEvent('filechooser') could reach Chromium
    // first and open no chooser it sees. A listener kept from the start (each test has a page of its own, signed in
    // once) has it on before any chooser opens.
    page.on('filechooser', () => undefined);
    return session;
  }

  async function created(session: TestSession, fields: Record<string, string>): Promise<string> {
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: OBJECT, fields }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  function fileOf(name: string, content: string | Buffer): string {
    const path = join(mkdtempSync(join(tmpdir(), 'import-e2e-')), name);
    writeFileSync(path, content);
    return path;
  }

  /** Chooses the file by keyboard: Space on the file input opens the chooser, which is given the file. */
  async function chooseFile(path: string): Promise<void> {
    await tabTo(page, 'input: CSV file');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(path);
  }

  async function reviewByKeyboard(name: 'Review' | 'Review again'): Promise<void> {
    await tabTo(page, `button: ${name}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^h2: Review: /);
  }

  it('reviews a file, takes a corrected mapping, imports it and shows the history it wrote, by keyboard', async () => {
    const session = await signedIn();
    const changedId = await created(session, CHANGED);
    const unchangedId = await created(session, UNCHANGED);
    const path = fileOf('contacts.csv', FILE);

    // From the list view, Import beside Export.
    await page.goto(`${server.baseUrl}${LIST}`);
    await page.locator('.bo-table tbody tr').first().waitFor();
    await page.getByRole('link', { name: /^Export / }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a: Import');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}${IMPORT}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Import Contact Us');
    expect(await axeViolations(page)).toEqual([]);

    // The file, then Review.
    await chooseFile(path);
    await reviewByKeyboard('Review');
    expect(await focused(page)).toBe('h2: Review: 4 rows');
    expect(await totalsOf(page, '.bo-import__review')).toEqual({ New: 1, Changed: 1, Unchanged: 1, Invalid: 1 });
    const changed = await reviewRow(page, 2);
    expect(changed.slice(0, 3)).toEqual(['2', 'Changed', changedId]);
    expect(changed[3]).toContain('Phone: 555 0100 → 555 0199');
    // Town is mapped to nothing: the city is not compared.
    expect(changed[3]).not.toContain('City');
    expect((await reviewRow(page, 3)).slice(0, 3)).toEqual(['3', 'Unchanged', unchangedId]);
    expect((await reviewRow(page, 4)).slice(0, 2)).toEqual(['4', 'New']);
    const invalid = await reviewRow(page, 5);
    expect(invalid[1]).toBe('Invalid');
    expect(invalid[3]).toMatch(/e-?mail/i);
    expect(await page.getByLabel('Field for Town').inputValue()).toBe('');
    expect(await page.getByRole('row', { name: /Town/ }).innerText()).toContain('Not mapped');
    // The match key the object's first matching rule gives: company and e-mail.
    expect(await page.getByRole('checkbox', { name: 'Company Name' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Email' }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // The filter shows the rows of one status.
    await page.getByLabel('Show').selectOption('invalid');
    await expect.poll(() => page.locator('.bo-import__rows tbody tr').count()).toBe(1);
    await page.getByLabel('Show').selectOption('all');

    // Town mapped to City by keyboard (typing in the select picks the option), and the mapping saved.
    await tabTo(page, 'select: Field for Town');
    await page.keyboard.type('City');
    await expect.poll(() => page.getByLabel('Field for Town').inputValue()).toBe('APT_City__c');
    expect(await page.getByRole('row', { name: /Town/ }).innerText()).toContain('Chosen');
    // The review is now of another mapping: Import says so rather than import.
    const importButton = page.getByRole('button', { name: /^Import \d/ });
    expect(await importButton.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('#bo-import-blocked').innerText()).toContain('review again');
    await tabTo(page, 'button: Save mapping');
    await page.keyboard.press('Enter');
    await page.getByText('Mapping saved').waitFor();
    const saved = await fetch(`${server.baseUrl}${IMPORT}/mapping`, { headers: session.headers });
    expect(((await saved.json()) as { mapping: Record<string, string | null> }).mapping).toMatchObject({
      Town: 'APT_City__c',
    });

    await reviewByKeyboard('Review again');
    expect(await totalsOf(page, '.bo-import__review')).toEqual({ New: 1, Changed: 1, Unchanged: 1, Invalid: 1 });
    expect((await reviewRow(page, 2))[3]).toContain('City: Sitka → Juneau');
    expect((await reviewRow(page, 2))[3]).toContain('Phone: 555 0100 → 555 0199');
    expect(await axeViolations(page)).toEqual([]);

    // The report as CSV, a row per line of the file.
    await tabTo(page, 'button: Download report (CSV)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const report = readCsv(readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, ''));
    expect(report[0].slice(0, 3)).toEqual(['Line', 'Status', 'Record Id']);
    expect(report.slice(1).map((row) => row.slice(0, 2))).toEqual([
      ['2', 'changed'],
      ['3', 'unchanged'],
      ['4', 'new'],
      ['5', 'invalid'],
    ]);

    // Import: the new and the changed rows, with the progress to the end (each state of the bar recorded as the
    // page shows it), then the report.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('progress');
        const state = bar && `${bar.getAttribute('value')}/${bar.getAttribute('max')}`;
        if (state && seen.at(-1) !== state) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await tabTo(page, 'button: Import 2 rows');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page), { timeout: 30_000 }).toBe('h2: Import finished');
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen[0]).toBe('0/2');
    expect(seen.at(-1)).toBe('2/2');
    const progress = page.locator('progress');
    expect(await progress.getAttribute('value')).toBe('2');
    expect(await progress.getAttribute('max')).toBe('2');
    expect(await page.locator('.bo-import__note[role="status"]').last().innerText()).toBe('2 of 2 rows written');
    expect(await totalsOf(page, '.bo-import__result')).toMatchObject({ Created: 1, Updated: 1 });
    const notWritten = page.locator('.bo-import__failed li');
    expect(await notWritten.allInnerTexts()).toEqual([expect.stringMatching(/^Line 5: .*e-?mail/i)]);
    expect(await page.locator('.bo-import__result').getByRole('link', { name: 'Back to Contact Us' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // The same file again: nothing new, nothing to change.
    await reviewByKeyboard('Review');
    expect(await totalsOf(page, '.bo-import__review')).toEqual({ New: 0, Changed: 0, Unchanged: 3, Invalid: 1 });

    // The changed record's history: the import's changes.
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${changedId}/view`);
    const history = page
      .locator('.bo-related-list')
      .filter({ has: page.getByRole('heading', { level: 3, name: /^Contact Us History/ }) });
    await expect.poll(() => history.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
    const entries = (await history.getByRole('listitem').allInnerTexts()).join('\n');
    expect(entries).toMatch(/City[\s\S]*Sitka[\s\S]*Juneau/);
    expect(entries).toMatch(/Phone[\s\S]*555 0100[\s\S]*555 0199/);
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it('says a refused file as an alert, keeping the form, and why all or nothing would write nothing', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${IMPORT}`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Import Contact Us');

    // An empty file.
    await page.getByLabel('All or nothing').check();
    await page.getByLabel('CSV file').setInputFiles(fileOf('empty.csv', ''));
    await page.getByRole('button', { name: 'Review' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const empty = await alert.innerText();
    expect(empty).toContain('The file was not reviewed.');
    expect(await focused(page)).toMatch(/^alert: The file was not reviewed\./);
    expect(await page.getByLabel('All or nothing').isChecked()).toBe(true);
    expect(await page.getByLabel('CSV file').evaluate((input: HTMLInputElement) => input.files?.[0]?.name)).toBe(
      'empty.csv',
    );
    expect(await axeViolations(page)).toEqual([]);

    // A file that is not CSV: bytes that are no UTF-8 text.
    await page
      .getByLabel('CSV file')
      .setInputFiles(fileOf('photo.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff])));
    await page.getByRole('button', { name: 'Review' }).click();
    // Another refusal, in its own words.
    await expect.poll(() => alert.innerText()).not.toBe(empty);
    expect(await alert.innerText()).toContain('The file was not reviewed.');

    // All or nothing with an invalid row: Import explains, and writes nothing.
    const others = [
      'Company Name,Email,Phone',
      'Saltmarsh Cordage,orders@saltmarsh-cordage.example,555 0500',
      'Northbay Blocks,sales@northbay-blocks.example,555 0600',
      'Skerry Tackle,not-an-email,555 0700',
    ].join('\n');
    await page.getByLabel('CSV file').setInputFiles(fileOf('others.csv', others));
    await page.getByRole('button', { name: 'Review' }).click();
    await expect.poll(() => focused(page)).toBe('h2: Review: 3 rows');
    const importButton = page.getByRole('button', { name: /^Import \d/ });
    expect(await importButton.getAttribute('aria-disabled')).toBe('true');
    expect(await page.locator('#bo-import-blocked').innerText()).toContain(
      'All or nothing: 1 row is invalid, so nothing will be written.',
    );
    // Focusable still, so that its reason is read; Enter on it sends nothing.
    await importButton.focus();
    expect(await focused(page)).toBe('button: Import 2 rows');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    expect(await page.getByRole('heading', { name: 'Importing' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/import\/dry-run$/),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
      expect.stringMatching(/^415 .*\/import\/dry-run$/),
      expect.stringMatching(/^error: Failed to load resource: .* 415/),
    ]);
    watched.problems.length = 0;
  }, 60_000);
});
