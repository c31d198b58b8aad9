/**
 * A record's actions in the back office, in Chromium: Clone (the create form filled with the record's values,
 * which creates a new record and leaves the original as it was); the "More actions" menu by keyboard (the menu
 * button pattern, with the focus visible); a quick action run in its dialog, an update and a create, whose
 * result the page then shows and says; a field error beside its field in the dialog; a Standard User offered
 * only the actions the API offers; an Account's actions (a Case created for it with the action's predefined
 * values, its phone updated); Change Owner in its dialog; axe on the page with the menu open, on the dialog and on the clone form; 390 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { databases, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const OBJECT = 'APT_Contact_Us__c';
const RECORD_API = '/services/data/v65.0/ui-api/records';
const ACTIONS_API = '/services/data/v65.0/ui-api/actions/record';
/** The demo Standard User, whom Change Owner finds as "Sales Representative". */
const STANDARD_USER = '0058d0000000002AAA';
/** Each test drives several screens of a machine others use too. */
const SLOW = 90_000;

function field(page: Page, label: string) {
  return page.getByLabel(label, { exact: true });
}

/** A value shown on a record page, by its field's label. */
function shownValue(page: Page, label: string) {
  return page
    .locator('.bo-field')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');
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

/** The record id of the record page shown. */
function recordIdOf(page: Page): string {
  const match = /\/lightning\/r\/\w+\/(\w{18})\/view$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not a record page: ${page.url()}`);
  return match[1];
}

describe.each(databases())('A record’s actions in the back office, in Chromium (%s)', (database) => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ database, demoContacts: 40 }, (session) => ({ server, watched, page } = session));

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

  /** A record's values of some fields, read through the API. */
  async function valuesOf(session: TestSession, recordId: string, names: string[]): Promise<Record<string, unknown>> {
    const fields = names.map((name) => `${OBJECT}.${name}`).join(',');
    const response = await fetch(`${server.baseUrl}${RECORD_API}/${recordId}?fields=${fields}`, {
      headers: session.headers,
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { fields: Record<string, { value: unknown }> };
    return Object.fromEntries(names.map((name) => [name, body.fields[name]?.value]));
  }

  async function recordPage(recordId: string): Promise<void> {
    await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
    await page.getByRole('button', { name: 'More actions' }).waitFor();
  }

  it(
    'clones a record: the create form filled with its values makes a new record, the original unchanged',
    async () => {
      const session = await signedIn();
      const original = {
        APT_Company_Name__c: 'Clonable Conduit Co',
        APT_Phone__c: '512-555-0101',
        APT_Email__c: 'sales@clonable-conduit.example',
        APT_City__c: 'Austin',
        APT_Country__c: 'United States',
        APT_Primary_State__c: 'Texas',
      };
      const recordId = await createdRecord(session, original);
      await recordPage(recordId);
      await page.getByRole('link', { name: 'Clone', exact: true }).click();
      await page.waitForURL(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/clone`);
      await page.getByRole('button', { name: 'Save' }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Clone Contact Us');
      expect(await field(page, 'Company Name').inputValue()).toBe('Clonable Conduit Co');
      expect(await field(page, 'Phone').inputValue()).toBe('512-555-0101');
      expect(await field(page, 'Primary State/Province').inputValue()).toBe('Texas');
      expect(await axeViolations(page)).toEqual([]);

      await field(page, 'Company Name').fill('Clonable Conduit Co West');
      await field(page, 'Email').fill('west@clonable-conduit.example');
      const sent = page.waitForRequest((request) => request.method() !== 'GET');
      await page.getByRole('button', { name: 'Save' }).click();
      expect((await sent).method()).toBe('POST');
      await page.waitForURL(new RegExp(`/lightning/r/${OBJECT}/\\w{18}/view$`));
      const copyId = recordIdOf(page);
      expect(copyId).not.toBe(recordId);
      await expect.poll(() => shownValue(page, 'Company Name').innerText()).toBe('Clonable Conduit Co West');
      expect(await shownValue(page, 'Phone').innerText()).toBe('512-555-0101');
      expect(await shownValue(page, 'City').innerText()).toBe('Austin');
      expect(await shownValue(page, 'Primary State/Province').innerText()).toBe('Texas');
      expect(await valuesOf(session, recordId, Object.keys(original))).toEqual(original);
    },
    SLOW,
  );

  it(
    'opens More actions by keyboard and runs an update action, whose change the page shows',
    async () => {
      const session = await signedIn();
      await recordWrites(page);
      const recordId = await createdRecord(session, {
        APT_Company_Name__c: 'Keyed Relay Works',
        APT_Phone__c: '512-555-0111',
        APT_Email__c: 'k@keyed-relay.example',
      });
      await recordPage(recordId);
      const more = page.getByRole('button', { name: 'More actions' });
      expect(await more.getAttribute('aria-haspopup')).toBe('menu');
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      await more.focus();
      await page.keyboard.press('ArrowDown');
      const menu = page.getByRole('menu', { name: 'More actions' });
      await menu.waitFor();
      expect(await more.getAttribute('aria-expanded')).toBe('true');
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['New Contact', 'Update Phone and Email']);
      expect(await focused(page)).toMatchObject({ text: 'New Contact', outlined: true });
      await page.keyboard.press('ArrowDown');
      expect(await focused(page)).toMatchObject({ text: 'Update Phone and Email', outlined: true });
      await page.keyboard.press('ArrowDown');
      expect((await focused(page)).text).toBe('New Contact');
      await page.keyboard.press('End');
      expect((await focused(page)).text).toBe('Update Phone and Email');
      expect(await axeViolations(page)).toEqual([]);

      // Escape closes it and gives the focus back to its button.
      await page.keyboard.press('Escape');
      await expect.poll(() => menu.count()).toBe(0);
      expect(await focused(page)).toMatchObject({ text: 'More actions' });
      expect(await more.getAttribute('aria-expanded')).toBe('false');

      // Up Arrow opens it on its last item; Enter runs it.
      await page.keyboard.press('ArrowUp');
      await menu.waitFor();
      expect((await focused(page)).text).toBe('Update Phone and Email');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Update Phone and Email' });
      await dialog.waitFor();
      const phone = dialog.getByLabel('Phone', { exact: true });
      await phone.waitFor();
      expect(await phone.inputValue()).toBe('512-555-0111');
      expect((await focused(page)).id).toBe(await phone.getAttribute('id'));
      expect(await axeViolations(page)).toEqual([]);
      await phone.fill('512-555-0199');
      const sent = page.waitForRequest((request) => request.method() === 'PATCH');
      await page.keyboard.press('Enter');
      await sent;
      await expect
        // The related lists' read is a POST too: the run is the write with the record as its context.
        .poll(async () =>
          (await sentWrites(page)).find((write) => (write as { contextId?: string }).contextId === recordId),
        )
        .toEqual({
          apiName: OBJECT,
          contextId: recordId,
          fields: { APT_Phone__c: '512-555-0199' },
        });
      await expect.poll(() => dialog.count()).toBe(0);
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'The phone and email were saved.' }).count())
        .toBe(1);
      await expect.poll(() => shownValue(page, 'Phone').innerText()).toBe('512-555-0199');
      expect(await focused(page)).toMatchObject({ text: 'More actions' });
      expect(await valuesOf(session, recordId, ['APT_Phone__c'])).toEqual({ APT_Phone__c: '512-555-0199' });

      // Opened again, it starts from the record as it now is.
      await more.click();
      await menu.getByRole('menuitem', { name: 'Update Phone and Email' }).click();
      await dialog.waitFor();
      await expect.poll(() => dialog.getByLabel('Phone', { exact: true }).inputValue()).toBe('512-555-0199');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    },
    SLOW,
  );

  it(
    'runs a create action from the record, and says what it created',
    async () => {
      const session = await signedIn();
      const recordId = await createdRecord(session, {
        APT_Company_Name__c: 'Parent Panel Partners',
        APT_Email__c: 'p@parent-panel.example',
      });
      await recordPage(recordId);
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'New Contact' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Contact' });
      await dialog.getByRole('button', { name: 'Save' }).waitFor();
      await dialog.getByLabel('Company Name', { exact: true }).fill('Child Conductor Corp');
      await dialog.getByLabel('Email', { exact: true }).fill('c@child-conductor.example');
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const answer = await answered;
      expect(answer.status()).toBe(201);
      const created = (await answer.json()) as { id: string; contextId: string; isCreated: boolean };
      expect(created).toMatchObject({ contextId: recordId, isCreated: true });
      expect(await valuesOf(session, created.id, ['APT_Company_Name__c', 'APT_Email__c'])).toEqual({
        APT_Company_Name__c: 'Child Conductor Corp',
        APT_Email__c: 'c@child-conductor.example',
      });
      await expect.poll(() => dialog.count()).toBe(0);
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: /^Contact Us "CU-\d+" was created\.$/ })
            .count(),
        )
        .toBe(1);
      expect(await shownValue(page, 'Company Name').innerText()).toBe('Parent Panel Partners');
    },
    SLOW,
  );

  it(
    'runs an Account’s actions: a Case created for it with its predefined values, and its phone updated',
    async () => {
      const session = await signedIn();
      await recordWrites(page);
      const created = await fetch(`${server.baseUrl}${RECORD_API}`, {
        method: 'POST',
        headers: { ...session.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiName: 'Account', fields: { Name: 'Breaker Yard Supply', Phone: '614-555-0100' } }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const accountId = ((await created.json()) as { id: string }).id;
      await page.goto(`${server.baseUrl}/lightning/r/Account/${accountId}/view`);
      const more = page.getByRole('button', { name: 'More actions' });
      await more.click();
      const menu = page.getByRole('menu', { name: 'More actions' });
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['New Contact', 'New Case', 'Update Phone']);
      await menu.getByRole('menuitem', { name: 'New Case' }).click();

      // The action's predefined values and the Account as the Case's parent come filled in.
      const dialog = page.getByRole('dialog', { name: 'New Case' });
      const subject = dialog.getByLabel('Subject', { exact: true });
      await subject.waitFor();
      expect(await dialog.getByLabel('Status', { exact: true }).inputValue()).toBe('New');
      expect(await dialog.getByLabel('Case Origin', { exact: true }).inputValue()).toBe('Phone');
      expect(await axeViolations(page)).toEqual([]);
      await subject.fill('Breaker trips under load');
      const answered = page.waitForResponse((response) => response.request().method() === 'POST');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const answer = await answered;
      expect(answer.status()).toBe(201);
      const run = (await answer.json()) as { id: string; contextId: string; isCreated: boolean };
      expect(run).toMatchObject({ contextId: accountId, isCreated: true });
      const caseRead = await fetch(
        `${server.baseUrl}${RECORD_API}/${run.id}?fields=Case.Subject,Case.Status,Case.Origin,Case.AccountId`,
        { headers: session.headers },
      );
      const caseFields = ((await caseRead.json()) as { fields: Record<string, { value: unknown }> }).fields;
      expect(Object.fromEntries(Object.entries(caseFields).map(([name, { value }]) => [name, value]))).toEqual({
        Subject: 'Breaker trips under load',
        Status: 'New',
        Origin: 'Phone',
        AccountId: accountId,
      });
      await expect.poll(() => dialog.count()).toBe(0);
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: /was created\.$/ })
            .count(),
        )
        .toBe(1);

      // The update action writes only the field changed, and the page shows the new phone.
      await more.click();
      await menu.getByRole('menuitem', { name: 'Update Phone' }).click();
      const update = page.getByRole('dialog', { name: 'Update Phone' });
      const phone = update.getByLabel('Account Phone', { exact: true });
      await expect.poll(() => phone.inputValue()).toBe('614-555-0100');
      await phone.fill('614-555-0199');
      const sent = page.waitForRequest((request) => request.method() === 'PATCH');
      await update.getByRole('button', { name: 'Save' }).click();
      await sent;
      await expect
        // The related lists' read is a POST too: the run is the write about the Account.
        .poll(async () =>
          (await sentWrites(page)).find((write) => (write as { apiName?: string }).apiName === 'Account'),
        )
        .toEqual({ apiName: 'Account', contextId: accountId, fields: { Phone: '614-555-0199' } });
      await expect.poll(() => update.count()).toBe(0);
      await expect.poll(() => shownValue(page, 'Account Phone').innerText()).toBe('614-555-0199');
    },
    SLOW,
  );

  it(
    'changes a record’s owner in its dialog: a user searched as one types, written only if the record is unchanged',
    async () => {
      const session = await signedIn();
      await recordWrites(page);
      const recordId = await createdRecord(session, {
        APT_Company_Name__c: 'Handover Cable Co',
        APT_Email__c: 'h@handover-cable.example',
      });
      await recordPage(recordId);
      const button = page.getByRole('button', { name: 'Change Owner' });
      await button.click();
      const dialog = page.getByRole('dialog', { name: 'Change Contact Us Owner' });
      const owner = dialog.getByRole('combobox', { name: 'Owner', exact: true });
      await owner.waitFor();
      expect((await focused(page)).id).toBe(await owner.getAttribute('id'));

      // Nothing chosen: the form's own check says so, beside the field.
      await dialog.getByRole('button', { name: 'Change Owner' }).click();
      await expect.poll(() => dialog.getByText('Complete this field.').count()).toBe(1);
      expect((await sentWrites(page)).filter((write) => JSON.stringify(write).includes('OwnerId'))).toEqual([]);

      await page.keyboard.type('Sa');
      const option = dialog.getByRole('option', { name: /Sales Representative/ });
      await option.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await owner.inputValue()).toBe('Sales Representative');
      const sent = page.waitForRequest((request) => request.method() === 'PATCH');
      await dialog.getByRole('button', { name: 'Change Owner' }).click();
      const request = await sent;
      expect(request.url()).toContain(`${RECORD_API}/${recordId}`);
      expect(request.headers()['if-unmodified-since']).toBeTruthy();
      await expect
        .poll(async () => (await sentWrites(page)).find((write) => JSON.stringify(write).includes('OwnerId')))
        .toEqual({ fields: { OwnerId: STANDARD_USER } });
      await expect.poll(() => dialog.count()).toBe(0);
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'The Contact Us has a new owner.' }).count())
        .toBe(1);
      expect(await valuesOf(session, recordId, ['OwnerId'])).toEqual({ OwnerId: STANDARD_USER });
      expect((await focused(page)).text).toBe('Change Owner');

      // Changed by someone else once the page read it (a second later: If-Unmodified-Since counts seconds), the
      // record keeps its owner, and the dialog says why and offers to reload.
      await new Promise((done) => setTimeout(done, 1_100));
      const meanwhile = await fetch(`${server.baseUrl}${RECORD_API}/${recordId}`, {
        method: 'PATCH',
        headers: { ...session.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: { APT_Email__c: 'moved@handover-cable.example' } }),
      });
      expect(meanwhile.status).toBe(200);
      await button.click();
      await owner.waitFor();
      await page.keyboard.type('St');
      await dialog.getByRole('option', { name: /Store Administrator/ }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: 'Change Owner' }).click();
      const conflict = dialog.getByRole('alert').filter({ hasText: 'This record changed since you opened it.' });
      await conflict.waitFor();
      expect(await valuesOf(session, recordId, ['OwnerId'])).toEqual({ OwnerId: STANDARD_USER });
      await dialog.getByRole('button', { name: 'Reload the record' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      // The refused write is the one failure the page met.
      expect(watched.problems).toEqual([
        expect.stringMatching(new RegExp(`^412 .*${RECORD_API}/${recordId}$`)),
        expect.stringContaining('412 (Precondition Failed)'),
      ]);
      watched.problems.length = 0;
    },
    SLOW,
  );

  it(
    'shows a field error of a quick action beside its field, in the dialog',
    async () => {
      const session = await signedIn();
      const recordId = await createdRecord(session, {
        APT_Company_Name__c: 'Faulty Fuse Factory',
        APT_Email__c: 'f@faulty-fuse.example',
      });
      await recordPage(recordId);
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menuitem', { name: 'Update Phone and Email' }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Phone and Email' });
      const email = dialog.getByLabel('Email', { exact: true });
      await email.waitFor();
      await email.fill('not-an-address');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => email.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await email.getAttribute('aria-describedby')}`).innerText()).toBe(
        'Email: invalid email address: not-an-address',
      );
      expect((await focused(page)).id).toBe(await email.getAttribute('id'));
      expect(await dialog.isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(await valuesOf(session, recordId, ['APT_Email__c'])).toEqual({ APT_Email__c: 'f@faulty-fuse.example' });
      expect(watched.problems).toEqual([
        expect.stringMatching(/^400 .*\/actions\/perform-quick-action\/APT_Contact_Us__c\.Update_Phone$/),
        expect.stringMatching(/^error: Failed to load resource: .* 400/),
      ]);
      watched.problems.length = 0;
      // Cancel closes it, and nothing was written.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    },
    SLOW,
  );

  it(
    'offers a Standard User only the actions the API offers it',
    async () => {
      const admin = await signIn(server, 'admin');
      const recordId = await createdRecord(admin, {
        APT_Company_Name__c: 'Guarded Grid Group',
        APT_Email__c: 'g@guarded-grid.example',
      });
      const session = await signedIn('standard');
      const response = await fetch(`${server.baseUrl}${ACTIONS_API}/${recordId}?sections=Page&formFactor=Large`, {
        headers: session.headers,
      });
      const offered = (
        (await response.json()) as {
          actions: Record<string, { actions: { apiName: string; label: string; type: string }[] }>;
        }
      ).actions[recordId].actions;
      await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/view`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('.bo-record__actions').waitFor();
      const buttons = await page.locator('.bo-record__actions > .bo-button').allInnerTexts();
      const drawn = { Edit: 'Edit', Delete: 'Delete', Clone: 'Clone', ChangeOwner: 'Change Owner' };
      expect(buttons).toEqual(
        Object.entries(drawn)
          .filter(([name]) => offered.some((action) => action.apiName === name))
          .map(([, label]) => label),
      );
      const quick = offered.filter((action) => action.type === 'QuickAction').map((action) => action.label);
      const more = page.getByRole('button', { name: 'More actions' });
      if (quick.length === 0) expect(await more.count()).toBe(0);
      else {
        await more.click();
        expect(await page.getByRole('menuitem').allInnerTexts()).toEqual(quick);
      }
    },
    SLOW,
  );

  it(
    'works at 390 px wide: the menu, the dialog and the clone form no wider than the window',
    async () => {
      const session = await signedIn();
      const recordId = await createdRecord(session, {
        APT_Company_Name__c: 'Narrow Needle Networks',
        APT_Email__c: 'n@narrow-needle.example',
      });
      await page.setViewportSize({ width: 390, height: 844 });
      await recordPage(recordId);
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('menu').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
      const box = await page.getByRole('menu').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('menuitem', { name: 'New Contact' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Contact' });
      await dialog.getByRole('button', { name: 'Save' }).waitFor();
      const dialogBox = await dialog.boundingBox();
      expect(dialogBox!.x + dialogBox!.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await page.goto(`${server.baseUrl}/lightning/r/${OBJECT}/${recordId}/clone`);
      await page.getByRole('button', { name: 'Save' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
      expect(await axeViolations(page)).toEqual([]);
    },
    SLOW,
  );
});
