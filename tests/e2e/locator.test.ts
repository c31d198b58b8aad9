/**
 * The contact locator in a real Chromium against the real server: the default contact, the three
 * comboboxes and their transitions, the cards, the empty and no-match states, the spinner, axe.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeId } from '../../server/platform/core/ids.ts';
import type { TestServer } from '../support/server.ts';
import {
  cards,
  choose,
  combobox,
  DEMO_CONTACTS,
  FILTERS,
  optionLabels,
  pager,
  searchOf,
  watchedPage,
  type WatchedPage,
  usePageSession,
  axeViolations,
} from './helpers.ts';

describe('Contact locator in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ demoContacts: DEMO_CONTACTS }, (session) => ({ server, browser, watched, page } = session));

  it('shows the default contact, empty comboboxes and the empty label', async () => {
    await page.goto(`${server.baseUrl}/`);
    const block = page.getByTestId('default-contact');
    await expect.poll(() => block.getByRole('heading').innerText()).toBe('Northgate Electrical Products, Inc.');
    const lines = await block.locator('p').allInnerTexts();
    expect(lines).toEqual([
      '1200 Commerce Drive, Suite 400',
      'Milwaukee, Wisconsin',
      'United States',
      '53202',
      'Phone: (414) 555-0100',
    ]);
    expect(await block.getByRole('link', { name: '(414) 555-0100' }).getAttribute('href')).toBe('tel:+14145550100');

    expect(await combobox(page, 'Brand').getAttribute('placeholder')).toBe('--Select Brand--');
    expect(await combobox(page, 'Country').getAttribute('placeholder')).toBe('--Select Country--');
    expect(await combobox(page, 'State/Province').getAttribute('placeholder')).toBe('--Select State--');
    expect(await combobox(page, 'State/Province').isDisabled()).toBe(true);
    expect(await page.getByText('No Contacts to display').count()).toBe(1);
    expect(await cards(page).count()).toBe(0);
    expect(await pager(page).count()).toBe(0);
  });

  it('lists the brands upper-cased and filters by brand', async () => {
    await page.goto(`${server.baseUrl}/`);
    await combobox(page, 'Brand').click();
    expect(await optionLabels(page, 'Brand')).toEqual([
      'ARCLINE',
      'BOLTWRIGHT',
      'CONDUVEX',
      'DYNASWITCH',
      'FERROLUX',
      'GRIDMARK',
      'HELIOFLEX',
      'IRONSPAN',
    ]);
    await page.getByRole('option', { name: 'GRIDMARK' }).click();
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark');
    await expect.poll(() => cards(page).count()).toBe(12);
    expect(await page.locator('.locator__summary').innerText()).toBe('Showing 1–12 of 199 contacts');
  });

  it("loads a country's states upper-cased and clears the state when the country changes", async () => {
    await page.goto(`${server.baseUrl}/`);
    await choose(page, 'Country', 'Canada');
    await expect.poll(() => searchOf(page)).toBe('?country=Canada');
    await expect.poll(() => cards(page).count()).toBe(12);
    for (const text of await cards(page).allInnerTexts()) expect(text).toContain('Canada');

    const state = combobox(page, 'State/Province');
    expect(await state.isDisabled()).toBe(false);
    await state.click();
    const provinces = await optionLabels(page, 'State/Province');
    expect(provinces).toContain('ONTARIO');
    expect(provinces).toContain('BRITISH COLUMBIA');
    expect(provinces.every((name) => name === name.toUpperCase())).toBe(true);
    await page.getByRole('option', { name: 'ONTARIO' }).click();
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&state=Ontario');
    await expect.poll(() => page.locator('.locator__summary').innerText()).toBe('Showing 1–12 of 12 contacts');
    for (const text of await cards(page).allInnerTexts()) expect(text).toContain('Ontario');

    await choose(page, 'Country', 'United States');
    await expect.poll(() => searchOf(page)).toBe('?country=United States');
    expect(await state.inputValue()).toBe('');
    await state.click();
    const states = await optionLabels(page, 'State/Province');
    expect(states).toContain('TEXAS');
    expect(states).not.toContain('ONTARIO');
    await state.press('Escape');
    await expect.poll(() => page.locator('.locator__summary').innerText()).toBe('Showing 1–12 of 359 contacts');
  });

  it('shows every field of a card, North American phones formatted, with tel: and mailto: links', async () => {
    await page.goto(`${server.baseUrl}/${FILTERS.eightPages}`);
    const first = cards(page).first();
    // Contact 6 is the first Canadian contact by Id (demo data).
    expect(await first.getByRole('heading').innerText()).toBe('Morden Electrical Distributors Corp.');
    expect(await first.locator('address').innerText()).toBe('7263 Mill Boulevard\nMorden, Manitoba R1S 2L5\nCanada');
    const phone = first.getByRole('link', { name: '(724) 555-0173' });
    expect(await phone.getAttribute('href')).toBe('tel:+17245550173');
    const email = first.getByRole('link', { name: 'orders@morden-electrical-distributors-corp.example' });
    expect(await email.getAttribute('href')).toBe('mailto:orders@morden-electrical-distributors-corp.example');
    expect(await first.innerText()).toContain(makeId('a1C', 6));

    // Every Canadian phone number is shown as (xxx) xxx-xxxx, whatever its stored form.
    for (const link of await page.locator('.contact-card a[href^="tel:"]').all()) {
      expect(await link.innerText()).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    }
    // The company's own card: its line 2 holds its city (for the default-contact block), shown once.
    await page.goto(`${server.baseUrl}/?country=United+States&state=Wisconsin`);
    const own = cards(page).filter({ hasText: 'Northgate Electrical Products, Inc.' });
    expect(await own.locator('address').innerText()).toBe(
      '1200 Commerce Drive, Suite 400\nMilwaukee, Wisconsin 53202\nUnited States',
    );
    await page.goto(`${server.baseUrl}/${FILTERS.eightPages}`);
    // Address line 2 appears when a contact has one.
    expect((await cards(page).allInnerTexts()).some((text) => /\n(Suite|Unit|Building|Floor) \d+\n/.test(text))).toBe(
      true,
    );
  });

  it('says when nothing matches, and the filters clear back to the empty label', async () => {
    await page.goto(`${server.baseUrl}/${FILTERS.noMatch}`);
    expect(await combobox(page, 'Brand').inputValue()).toBe('GRIDMARK');
    expect(await combobox(page, 'State/Province').inputValue()).toBe('YUKON');
    expect(await page.locator('.locator__no-match').innerText()).toContain('No contacts match your selection');
    expect(await cards(page).count()).toBe(0);
    expect(await pager(page).count()).toBe(0);

    // The clear button of one combobox, then "Clear filters" for the rest.
    await page.getByRole('button', { name: 'Clear Brand' }).click();
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&state=Yukon');
    await expect.poll(() => cards(page).count()).toBe(5);
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => searchOf(page)).toBe('');
    await expect.poll(() => page.getByText('No Contacts to display').count()).toBe(1);
    for (const label of ['Brand', 'Country', 'State/Province'])
      expect(await combobox(page, label).inputValue()).toBe('');
  });

  it('says when a filter of the address names nothing in the lists, with or without JavaScript', async () => {
    const notice = (target: Page) => target.getByRole('note');
    await page.goto(`${server.baseUrl}/?country=Atlantis`);
    // With no other filter no contact is listed: the notice says what to do.
    expect(await notice(page).innerText()).toBe(
      'No country “Atlantis” is listed. Choose one from the list to see its contacts.',
    );
    expect(await page.getByText('No Contacts to display').count()).toBe(1);
    expect(await combobox(page, 'Country').inputValue()).toBe('');
    // The address keeps what it asked for, which the notice speaks of.
    expect(searchOf(page)).toBe('?country=Atlantis');

    // The other filters still apply.
    await page.goto(`${server.baseUrl}/?brand=Gridmark&country=Canada&state=Atlantis`);
    expect(await notice(page).innerText()).toBe(
      'No state or province “Atlantis” is listed for Canada, so the contacts are not filtered by state or province.',
    );
    expect(await page.locator('.locator__summary').innerText()).toMatch(/^Showing 1–\d+ of \d+ contacts$/);
    expect(await axeViolations(page)).toEqual([]);

    // Choosing a filter leaves the unknown one behind.
    await choose(page, 'State/Province', 'ont', 'ONTARIO');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark&country=Canada&state=Ontario');
    expect(await notice(page).count()).toBe(0);

    const noScript = await watchedPage(browser, { javaScriptEnabled: false });
    try {
      await noScript.page.goto(`${server.baseUrl}/?country=Atlantis`);
      expect(await notice(noScript.page).innerText()).toBe(
        'No country “Atlantis” is listed. Choose one from the list to see its contacts.',
      );
      expect(noScript.problems).toEqual([]);
    } finally {
      await noScript.context.close();
    }
  });

  it('shows a spinner until the country and state data arrives when the page renders in the browser alone', async () => {
    // The page as the Vite dev server serves it: no server-rendered markup, no embedded data.
    await page.route(`${server.baseUrl}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<div id="root">[\s\S]*<\/body>/, '<div id="root"></div></body>');
      await route.fulfill({ response, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } });
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/getDependentStatePicklistsValues*', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/`);
    const spinner = page.getByRole('status').filter({ hasText: 'Loading countries and states' });
    await spinner.waitFor();
    expect(await combobox(page, 'Country').isDisabled()).toBe(true);
    release();
    await spinner.waitFor({ state: 'detached' });
    expect(await combobox(page, 'Country').isDisabled()).toBe(false);
    await expect.poll(() => page.getByText('No Contacts to display').count()).toBe(1);
  });

  it('shows no default-contact block until it loads, nor when it fails, and logs the failure', async () => {
    await page.route(`${server.baseUrl}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<div id="root">[\s\S]*<\/body>/, '<div id="root"></div></body>');
      await route.fulfill({ response, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } });
    });
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    await page.route('**/getDefaultContacts*', async (route) => {
      await failing;
      await route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ errorMessage: 'Not here' }),
      });
    });
    const logged = page.waitForEvent(
      'console',
      (message) => message.type() === 'error' && message.text().startsWith('Error fetching default contact'),
    );
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('heading', { name: 'Find a sales representative' }).waitFor();
    expect(await page.getByTestId('default-contact').count()).toBe(0);
    fail();
    await logged;
    expect(await page.getByTestId('default-contact').count()).toBe(0);
    // The failure was expected here; anything else still counts.
    watched.problems = watched.problems.filter(
      (problem) => !/getDefaultContacts|Error fetching default contact|Failed to load resource: .* 404/.test(problem),
    );
  });

  it('has no axe violations: empty, with cards and pager, with an open list, with no match', async () => {
    await page.goto(`${server.baseUrl}/`);
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.baseUrl}/${FILTERS.thirtyPages}&page=15`);
    expect(await axeViolations(page)).toEqual([]);
    await combobox(page, 'State/Province').click();
    await combobox(page, 'State/Province').press('ArrowDown');
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.baseUrl}/${FILTERS.noMatch}`);
    expect(await axeViolations(page)).toEqual([]);
  });
});
