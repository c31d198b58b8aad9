/**
 * The back office's writes in Chromium, on every test database: the whole loop (sign in, create a Contact Us
 * record, see its card on the public locator at once, edit its phone, see the new number, delete it, see it
 * gone); a dependent picklist (the states offered follow the country); errors beside their fields (a required
 * field left empty, a value the platform refuses) with the focus on the first; the edit form by keyboard alone;
 * a conflict with the choice to reload; the question before a delete as a real modal; a duplicate rule's
 * warning and "Save anyway"; a Standard User offered no Delete of another's record; the form's loading and
 * error states, and a save that gets no answer; axe on the forms; 390 px.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';
import { cards, type WatchedPage, usePageSession, watchedPage, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const LIST = `/lightning/o/${OBJECT}/list?filterName=AllContactUs`;
const NEW = `/lightning/o/${OBJECT}/new`;
const RECORD_API = '/services/data/v65.0/ui-api/records';
/** A filter of the public locator that no demo contact matches. */
const PUBLIC_FILTER = '/?brand=Gridmark&country=Canada&state=Yukon';

function field(page: Page, label: string) {
  return page.getByLabel(label, { exact: true });
}

/** The form, once it is drawn with its picklists. */
async function formShown(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).waitFor();
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
      if (input instanceof Request && input.method !== 'GET')
        sent.push(JSON.parse((await input.clone().text()) || 'null'));
      return original(input, init);
    };
  });
}

function sentWrites(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as { sentWrites: unknown[] }).sentWrites);
}

/** What has the focus, and whether it shows. */
function focused(page: Page): Promise<{ id: string; tag: string; text: string; outlined: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { id: '', tag: 'body', text: '', outlined: false };
    const style = getComputedStyle(element);
    return {
      id: element.id,
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? '').trim(),
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    };
  });
}

/** The record id of the record page shown. */
function recordIdOf(page: Page): string {
  const match = /\/lightning\/r\/\w+\/(\w{18})\/view$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not a record page: ${page.url()}`);
  return match[1];
}

describe.each(databases())('The back office’s forms in Chromium (%s)', (database) => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 120 }, (session) => ({ server, browser, watched, page } = session));

  async function signedIn(who: 'admin' | 'standard' = 'admin'): Promise<TestSession> {
    const session = await signIn(server, who);
    const [name, value] = session.cookie.split('=');
    await page.context().addCookies([{ name, value, url: server.baseUrl }]);
    return session;
  }

  /** Creates a Contact Us record through the API, as the user of the session. */
  async function createdRecord(session: TestSession, fields: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${server.baseUrl}${RECORD_API}`, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiName: OBJECT, fields }),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  /** The public locator's cards for the filter, as a guest sees them, in a browser of its own. */
  async function publicCards(): Promise<string[]> {
    const guest = await watchedPage(browser);
    try {
      await guest.page.goto(`${server.baseUrl}${PUBLIC_FILTER}`);
      const texts = await cards(guest.page).allInnerTexts();
      expect(guest.problems).toEqual([]);
      return texts;
    } finally {
      await guest.context.close();
    }
  }

  it('creates a record, which the public locator shows at once; edits its phone; deletes it', async () => {
    // The guest's page of the filter is rendered, and cached, before the record exists.
    expect(await publicCards()).toEqual([]);
    await recordWrites(page);

    // Signs in on the sign-in page, which comes back to the list.
    await page.goto(`${server.baseUrl}${LIST}`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
    await page.getByLabel('E-mail address').fill(DEMO_USERS.admin.username);
    await page.getByLabel('Password').fill(server.passwords.admin);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.baseUrl}${LIST}`);

    await page.getByRole('link', { name: 'New', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}${NEW}`);
    await formShown(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('New Contact Us');
    await field(page, 'Company Name').fill('Yukon Switchgear Supply');
    await field(page, 'Phone').fill('867-555-0142');
    await field(page, 'Email').fill('sales@yukon-switchgear.example');
    await page.getByRole('group', { name: 'Brand' }).getByLabel('Gridmark').check();
    await field(page, 'City').fill('Whitehorse');
    await field(page, 'Country').selectOption('Canada');
    await field(page, 'Primary State/Province').selectOption('Yukon');
    await page.getByRole('button', { name: 'Save' }).click();

    // The new record's page.
    await page.waitForURL(new RegExp(`/lightning/r/${OBJECT}/\\w{18}/view$`));
    await expect.poll(() => shownValue(page, 'Company Name').innerText()).toBe('Yukon Switchgear Supply');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^CU-\d{6}$/);
    expect(await shownValue(page, 'Primary State/Province').innerText()).toBe('Yukon');
    const recordId = recordIdOf(page);

    // The public page shows its card at once.
    const [card, ...others] = await publicCards();
    expect(others).toEqual([]);
    expect(card).toContain('Yukon Switchgear Supply');
    expect(card).toContain('(867) 555-0142');
    expect(card).toContain(recordId);

    // Edit: its phone.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/edit`);
    await formShown(page);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/^Edit CU-\d{6}$/);
    expect(await field(page, 'Phone').inputValue()).toBe('867-555-0142');
    await field(page, 'Phone').fill('867-555-0199');
    const sent = page.waitForRequest((request) => request.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save' }).click();
    const patch = await sent;
    // Only the field changed, on the condition that the record is as it was read.
    expect(patch.headers()['if-unmodified-since']).toMatch(/ GMT$/);
    await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    // The record page's related lists are read with a POST once it shows: the save is the write with fields.
    expect((await sentWrites(page)).find((write) => JSON.stringify(write).startsWith('{"fields"'))).toEqual({
      fields: { APT_Phone__c: '867-555-0199' },
    });
    await expect.poll(() => shownValue(page, 'Phone').innerText()).toBe('867-555-0199');
    expect((await publicCards())[0]).toContain('(867) 555-0199');

    // Delete, after the question.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Contact Us' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${server.baseUrl}/lightning/o/${OBJECT}/home`);
    await page.getByRole('heading', { level: 1, name: 'All Contact Us' }).waitFor();
    expect(await publicCards()).toEqual([]);
    const gone = await fetch(`${server.baseUrl}${RECORD_API}/${recordId}?fields=${OBJECT}.Name`, {
      headers: (await signIn(server, 'admin')).headers,
    });
    expect(gone.status).toBe(404);
  });

  it('offers the states of the country chosen, and forgets a state of another country', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${NEW}`);
    await formShown(page);
    const state = field(page, 'Primary State/Province');
    // Until a country is chosen: no state to choose, and why.
    expect(await state.isDisabled()).toBe(true);
    expect(await page.locator(`#${await state.getAttribute('aria-describedby')}`).innerText()).toBe(
      'Choose a Country first.',
    );
    await field(page, 'Country').selectOption('Canada');
    await expect.poll(() => state.isEnabled()).toBe(true);
    const canada = await state.locator('option').allInnerTexts();
    expect(canada).toEqual([
      '--None--',
      'Alberta',
      'British Columbia',
      'Manitoba',
      'New Brunswick',
      'Newfoundland and Labrador',
      'Northwest Territories',
      'Nova Scotia',
      'Nunavut',
      'Ontario',
      'Prince Edward Island',
      'Quebec',
      'Saskatchewan',
      'Yukon',
    ]);
    await state.selectOption('Yukon');
    await field(page, 'Country').selectOption('Mexico');
    await expect.poll(() => state.inputValue()).toBe('');
    const mexico = await state.locator('option').allInnerTexts();
    expect(mexico).toContain('Baja California');
    expect(mexico).not.toContain('Yukon');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('shows a required field left empty, and a value the platform refuses, beside the field', async () => {
    await signedIn();
    await page.goto(`${server.baseUrl}${NEW}`);
    await formShown(page);
    const company = field(page, 'Company Name');
    expect(await company.getAttribute('aria-required')).toBe('true');

    // The form's own check: nothing is sent.
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => company.getAttribute('aria-invalid')).toBe('true');
    const companyError = page.locator(`#${await company.getAttribute('aria-describedby')}`);
    expect(await companyError.innerText()).toBe('Complete this field.');
    expect((await focused(page)).id).toBe(await company.getAttribute('id'));
    expect(await axeViolations(page)).toEqual([]);

    // The platform's field error, beside its field.
    await company.fill('Harbour Breakers Ltd');
    await field(page, 'Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Save' }).click();
    const email = field(page, 'Email');
    await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`#${await email.getAttribute('aria-describedby')}`).innerText()).toBe(
      'Email: invalid email address: not-an-address',
    );
    expect(await company.getAttribute('aria-invalid')).toBeNull();
    expect((await focused(page)).id).toBe(await email.getAttribute('id'));
    expect(new URL(page.url()).pathname).toBe(NEW);
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/records$/),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('edits a record by keyboard alone, with the focus visible', async () => {
    const session = await signedIn();
    const recordId = await createdRecord(session, {
      APT_Company_Name__c: 'Keyboard Relay Works',
      APT_Phone__c: '414-555-0170',
      APT_Email__c: 'keys@relay-works.example',
    });
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    await page.getByRole('link', { name: 'Edit', exact: true }).waitFor();
    // Tab to Edit, Enter.
    for (let presses = 0; presses < 12 && (await focused(page)).text !== 'Edit'; presses++)
      await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', text: 'Edit', outlined: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/edit$/);
    await formShown(page);
    // Tab from the screen's start to the phone, each stop visible.
    const phoneId = await field(page, 'Phone').getAttribute('id');
    for (let presses = 0; presses < 12 && (await focused(page)).id !== phoneId; presses++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).outlined).toBe(true);
    }
    expect((await focused(page)).id).toBe(phoneId);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('414-555-0177');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/view$/);
    await expect.poll(() => shownValue(page, 'Phone').innerText()).toBe('414-555-0177');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('says when the record changed since the form was opened, and reloads it', async () => {
    const session = await signedIn();
    const recordId = await createdRecord(session, {
      APT_Company_Name__c: 'Conflict Conduit Co',
      APT_City__c: 'Madison',
      APT_Email__c: 'c@conflict-conduit.example',
    });
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/edit`);
    await formShown(page);
    // Another change of the record, a second later (the condition is to the second).
    await new Promise((done) => setTimeout(done, 1100));
    const other = await fetch(`${server.baseUrl}${RECORD_API}/${recordId}`, {
      method: 'PATCH',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: { APT_City__c: 'Green Bay' } }),
    });
    expect(other.status).toBe(200);
    await field(page, 'Zip/Postal Code').fill('53703');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'changed since you opened it' });
    await alert.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    expect(await axeViolations(page)).toEqual([]);
    await alert.getByRole('button', { name: 'Reload the record' }).click();
    await expect.poll(() => field(page, 'City').inputValue()).toBe('Green Bay');
    expect(await field(page, 'Zip/Postal Code').inputValue()).toBe('');
    expect(await page.getByText('changed since you opened it').count()).toBe(0);
    expect(watched.problems).toEqual([
      expect.stringMatching(/^412 .*\/ui-api\/records\//),
      expect.stringMatching(/^error: Failed to load resource: .* 412/),
    ]);
    watched.problems.length = 0;
  });

  it('opens the edit form with the record as it is now, not as a visit before left it', async () => {
    const session = await signedIn();
    const recordId = await createdRecord(session, {
      APT_Company_Name__c: 'Revisited Relays',
      APT_City__c: 'Madison',
      APT_Email__c: 'r@revisited-relays.example',
    });
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/edit`);
    await formShown(page);
    expect(await field(page, 'City').inputValue()).toBe('Madison');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Edit', exact: true }).waitFor();
    const other = await fetch(`${server.baseUrl}${RECORD_API}/${recordId}`, {
      method: 'PATCH',
      headers: { ...session.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ fields: { APT_City__c: 'Kenosha' } }),
    });
    expect(other.status).toBe(200);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await formShown(page);
    expect(await field(page, 'City').inputValue()).toBe('Kenosha');
  });

  it('asks before a delete in a modal that keeps the focus, closes on Escape and gives the focus back', async () => {
    const session = await signedIn();
    const recordId = await createdRecord(session, {
      APT_Company_Name__c: 'Modal Meters Inc',
      APT_Email__c: 'm@modal-meters.example',
    });
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    const opener = page.getByRole('button', { name: 'Delete' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Delete Contact Us' });
    await dialog.waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Cancel' });
    // The focus goes round the dialog's buttons.
    const stops: string[] = [];
    for (let presses = 0; presses < 4; presses++) {
      await page.keyboard.press('Tab');
      stops.push((await focused(page)).text);
    }
    expect(stops).toEqual(['Delete', 'Cancel', 'Delete', 'Cancel']);
    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).text).toBe('Delete');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ tag: 'button', text: 'Delete' });
    // Cancel closes it too, and nothing was deleted.
    await opener.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe(`/lightning/r/${OBJECT}/${recordId}/view`);
  });

  it('warns of a duplicate, and saves anyway when the user says so', async () => {
    const session = await signedIn();
    await createdRecord(session, {
      APT_Company_Name__c: 'Twin Transformer Works',
      APT_Email__c: 'orders@twin-transformer.example',
      APT_Phone__c: '608-555-0101',
    });
    await recordWrites(page);
    await page.goto(`${server.baseUrl}${NEW}`);
    await formShown(page);
    await field(page, 'Company Name').fill('Twin Transformer Works Inc');
    await field(page, 'Email').fill('orders@twin-transformer.example');
    await field(page, 'Phone').fill('608-555-0102');
    await page.getByRole('button', { name: 'Save' }).click();
    const warning = page.getByRole('alert').filter({ hasText: 'creating a duplicate record' });
    await warning.waitFor();
    expect(await warning.innerText()).toContain('One similar record exists.');
    expect(await axeViolations(page)).toEqual([]);
    expect(new URL(page.url()).pathname).toBe(NEW);
    await warning.getByRole('button', { name: 'Save anyway' }).click();
    await page.waitForURL(/\/view$/);
    const [first, second] = await sentWrites(page);
    expect(first).not.toHaveProperty('allowSaveOnDuplicate');
    expect(second).toMatchObject({ apiName: OBJECT, allowSaveOnDuplicate: true });
    await expect.poll(() => shownValue(page, 'Company Name').innerText()).toBe('Twin Transformer Works Inc');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^400 .*\/ui-api\/records$/),
      expect.stringMatching(/^error: Failed to load resource: .* 400/),
    ]);
    watched.problems.length = 0;
  });

  it('offers a Standard User no Delete of a record it may not delete, and its read-only fields read-only', async () => {
    const admin = await signIn(server, 'admin');
    const recordId = await createdRecord(admin, {
      APT_Company_Name__c: 'Owned Elsewhere Electric',
      APT_Email__c: 'o@owned-elsewhere.example',
    });
    await signedIn('standard');
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    await page.getByRole('link', { name: 'Edit', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await formShown(page);
    // The profile may read Default Contact, not set it.
    expect(await field(page, 'Default Contact').count()).toBe(0);
    expect(await page.locator('.bo-form-field--read-only').getByText('Default Contact', { exact: true }).count()).toBe(
      1,
    );
    expect(await field(page, 'Company Name').isEditable()).toBe(true);
  });

  it('says it is loading the form, and why it could not be loaded', async () => {
    await signedIn();
    let release = () => {};
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/ui-api/record-defaults/create/**', async (route) => {
      await held;
      await route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify([{ errorCode: 'FORBIDDEN', message: 'You cannot create these records.' }]),
      });
    });
    await page.goto(`${server.baseUrl}${NEW}`);
    await page.getByRole('status').filter({ hasText: 'Loading the form…' }).waitFor();
    release();
    await expect
      .poll(() => page.getByRole('alert').innerText())
      .toBe('The form could not be loaded. You cannot create these records.');
    expect(watched.problems).toEqual([
      expect.stringMatching(/^403 .*\/ui-api\/record-defaults\/create\//),
      expect.stringMatching(/^error: Failed to load resource: .* 403/),
    ]);
    watched.problems.length = 0;
  });

  it('says at the top when a save gets no answer, and keeps what was typed', async () => {
    const session = await signedIn();
    const recordId = await createdRecord(session, {
      APT_Company_Name__c: 'Offline Outlets Ltd',
      APT_Email__c: 'o@offline-outlets.example',
    });
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/edit`);
    await formShown(page);
    await page.route(`**/ui-api/records/${recordId}`, (route) => route.abort('connectionrefused'));
    await field(page, 'City').fill('Duluth');
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'did not answer' });
    await alert.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    expect(await field(page, 'City').inputValue()).toBe('Duluth');
    expect(await page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);
    expect(watched.problems).toEqual([
      expect.stringMatching(/^error: Failed to load resource: net::ERR_CONNECTION_REFUSED/),
    ]);
    watched.problems.length = 0;
  });

  it('works at 390 px wide: the form in one column, nothing wider than the window', async () => {
    await signedIn();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.baseUrl}${NEW}`);
    await formShown(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const xs = await page
      .locator('.bo-section')
      .first()
      .locator('.bo-form-field')
      .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().x));
    expect(new Set(xs).size).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
