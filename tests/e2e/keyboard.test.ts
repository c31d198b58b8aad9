/**
 * The whole locator with the keyboard alone, as the WAI-ARIA combobox pattern has it: choose a brand, a
 * country and a state by typing, page through the cards, clear one filter and all of them. After every key
 * the focus is somewhere a keyboard user can see and go on from: never the page's body.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { combobox, DEMO_CONTACTS, searchOf, usePageSession, type WatchedPage } from './helpers.ts';

/** What has the focus: a combobox by its label, a link or button by its text, else the element's tag. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    if (element.getAttribute('role') === 'combobox') {
      const label =
        document.querySelector(`label[for="${element.id}"]`) ??
        document.getElementById(element.getAttribute('aria-labelledby') ?? '');
      return `combobox ${label?.textContent?.trim()}`;
    }
    const text = element.getAttribute('aria-label') ?? (element as HTMLElement).innerText.trim();
    return `${element.tagName.toLowerCase()} ${text}`;
  });
}

describe('the locator with the keyboard alone', () => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ demoContacts: DEMO_CONTACTS }, (session) => ({ server, watched, page } = session));

  /** Presses a key and checks that the focus did not fall to the page's body. */
  async function press(key: string): Promise<string> {
    await page.keyboard.press(key);
    const now = await focused(page);
    expect(now, `focus after ${key}`).not.toBe('body');
    return now;
  }

  /** Until the results for the address have arrived: a focused card that is replaced takes the focus with it. */
  async function settled() {
    await page.locator('.locator__results[aria-busy="false"]').waitFor();
  }

  async function tabTo(target: string, key = 'Tab') {
    // A page of 12 cards holds up to 3 stops each (phone, e-mail, "Contact this representative").
    for (let presses = 0; presses < 80 && (await focused(page)) !== target; presses++) await press(key);
    expect(await focused(page)).toBe(target);
  }

  it('chooses, pages, clears one filter and all of them, the focus never on the body', async () => {
    await page.goto(`${server.baseUrl}/`);
    await tabTo('combobox Brand');

    await page.keyboard.type('grid');
    expect(await press('Enter')).toBe('combobox Brand');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark');

    expect(await press('Tab')).toBe('combobox Country');
    await page.keyboard.type('united st');
    expect(await press('Enter')).toBe('combobox Country');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark&country=United States');
    await settled();

    // A stray Escape closes nothing and clears nothing.
    expect(await press('Escape')).toBe('combobox Country');
    expect(searchOf(page)).toBe('?brand=Gridmark&country=United States');

    // The pager: the focus goes to the top of the new page of results.
    await tabTo('a Next');
    await press('Enter');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark&country=United States&page=2');
    await expect.poll(() => focused(page)).toMatch(/^p Showing 13–/);

    // Back to State/Province, a state chosen by typing.
    await tabTo('combobox State/Province', 'Shift+Tab');
    await page.keyboard.type('wisc');
    expect(await press('Enter')).toBe('combobox State/Province');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark&country=United States&state=Wisconsin');

    // Erasing a field's text and leaving it clears that filter; the focus goes on to the next stop.
    await tabTo('combobox Country', 'Shift+Tab');
    await press('Control+A');
    await press('Backspace');
    expect(await press('Tab')).toBe('combobox State/Province');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark');
    expect(await combobox(page, 'State/Province').isDisabled()).toBe(true);

    // Clear filters, from the keyboard: every filter goes, and the focus to the first filter.
    await tabTo('a Clear filters');
    expect(await press('Enter')).toBe('combobox Brand');
    await expect.poll(() => searchOf(page)).toBe('');
    expect(await combobox(page, 'Brand').inputValue()).toBe('');

    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);
    expect(watched.problems).toEqual([]);
  });
});
