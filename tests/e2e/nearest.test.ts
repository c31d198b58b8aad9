/**
 * The nearest search in Chromium: a city typed into the place box and chosen from its suggestions (by
 * keyboard), "Use my location" with the position granted and refused, and a shared address rendered by the
 * server without JavaScript. The cards come nearest first, with their distance in the country's unit; the
 * page passes axe.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { axeViolations, cards, DEMO_CONTACTS, searchOf, usePageSession, watchedPage } from './helpers.ts';

/** The distances the cards show, in their unit, in the order shown. */
async function distances(page: Page): Promise<{ value: number; unit: string }[]> {
  const texts = await page.locator('.contact-card__distance').allInnerTexts();
  return texts.map((text) => {
    const match = /^([\d,.]+) (km|mi) away/.exec(text);
    if (!match) throw new Error(`Not a distance: ${text}`);
    return { value: Number(match[1].replace(/,/g, '')), unit: match[2] };
  });
}

describe('Nearest search in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  usePageSession({ demoContacts: DEMO_CONTACTS }, (session) => ({ server, browser, page } = session));

  const summary = () => page.locator('.locator__summary').innerText();
  const placeBox = () => page.getByRole('combobox', { name: 'Near a city' });

  it('finds the contacts nearest to a city typed and chosen by keyboard, in miles in the United States', async () => {
    await page.goto(`${server.baseUrl}/`);
    await placeBox().click();
    await page.keyboard.type('austin');
    const option = page.getByRole('option', { name: 'Austin, Texas, United States' });
    await option.waitFor();
    // Down until the Texas one is active, then Enter.
    const options = await page.getByRole('option').allInnerTexts();
    for (let index = 0; index <= options.indexOf('Austin, Texas, United States'); index++)
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => searchOf(page)).toMatch(/near=30\.26715,-97\.74306&place=Austin, Texas, United States/);
    await expect.poll(summary).toMatch(/^Showing 1–12 of \d+ contacts, nearest to Austin, Texas, United States$/);
    expect(await cards(page).count()).toBe(12);
    const shown = await distances(page);
    expect(shown.every((one) => one.unit === 'mi')).toBe(true);
    expect(shown.map((one) => one.value)).toEqual([...shown.map((one) => one.value)].sort((a, b) => a - b));
    expect(await axeViolations(page)).toEqual([]);
  });

  it('uses the position when the visitor grants it', async () => {
    const watched = await watchedPage(browser, {
      permissions: ['geolocation'],
      geolocation: { latitude: 52.52437, longitude: 13.41053 },
    });
    try {
      const own = watched.page;
      await own.goto(`${server.baseUrl}/`);
      await own.getByRole('button', { name: 'Use my location' }).click();
      await expect.poll(() => searchOf(own)).toMatch(/near=52\.52437,13\.41053&place=your location/);
      await expect.poll(() => own.locator('.locator__summary').innerText()).toMatch(/nearest to your location$/);
      const shown = await distances(own);
      expect(shown.length).toBe(12);
      expect(shown.map((one) => one.value)).toEqual([...shown.map((one) => one.value)].sort((a, b) => a - b));
      expect(await axeViolations(own)).toEqual([]);
      expect(watched.problems).toEqual([]);
    } finally {
      await watched.context.close();
    }
  });

  it('leaves the page as it was, and says so, when the position is refused', async () => {
    await page.goto(`${server.baseUrl}/?brand=Arcline`);
    const before = await cards(page).allInnerTexts();
    // This context was given no permission: Chromium refuses the position.
    await page.getByRole('button', { name: 'Use my location' }).click();
    await expect
      .poll(() => page.locator('.place-box__message').innerText())
      .toBe('Your location was not shared, so the list is as it was. Type a city instead.');
    expect(searchOf(page)).toBe('?brand=Arcline');
    expect(await cards(page).allInnerTexts()).toEqual(before);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('renders a shared address on the server, without JavaScript, in kilometres outside the mile countries', async () => {
    const watched = await watchedPage(browser, { javaScriptEnabled: false });
    try {
      const own = watched.page;
      await own.goto(`${server.baseUrl}/?near=48.13743,11.57549&place=Munich`);
      expect(await own.locator('.locator__summary').innerText()).toMatch(/nearest to Munich$/);
      expect(await own.locator('[data-testid="contact-card"]').count()).toBe(12);
      const shown = await distances(own);
      expect(shown.length).toBe(12);
      expect(shown.map((one) => one.value)).toEqual([...shown.map((one) => one.value)].sort((a, b) => a - b));
      // The nearest contact to Munich is in Germany: kilometres.
      expect(shown[0].unit).toBe('km');
    } finally {
      await watched.context.close();
    }
  });
});
