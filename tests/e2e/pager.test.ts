/**
 * The pager (docs/product-spec.md §4, §9) on real lists of the demo data: 12 cards a page; every page when
 * there are 7 or fewer; with 8 and with 30 pages the ellipsis rules at the start, middle and end;
 * previous disabled on page 1, next on the last; back to page 1 when a filter changes.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import {
  cards,
  choose,
  DEMO_CONTACTS,
  FILTERS,
  pager,
  pagerText,
  searchOf,
  watchedPage,
  usePageSession,
} from './helpers.ts';

describe('Pager in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  usePageSession({ demoContacts: DEMO_CONTACTS }, (session) => ({ server, browser, page } = session));

  const open = (search: string) => page.goto(`${server.baseUrl}/${search}`);
  const summary = () => page.locator('.locator__summary').innerText();

  it('lists all 7 pages of a 7-page list, previous disabled on the first and next on the last', async () => {
    await open(FILTERS.sevenPages);
    expect(await summary()).toBe('Showing 1–12 of 82 contacts');
    expect(await pagerText(page)).toBe('(Previous) [1] 2 3 4 5 6 7 Next');
    await pager(page).getByRole('link', { name: 'Page 7' }).click();
    await expect.poll(summary).toBe('Showing 73–82 of 82 contacts');
    expect(await cards(page).count()).toBe(10);
    expect(await pagerText(page)).toBe('Previous 1 2 3 4 5 6 [7] (Next)');
    expect(searchOf(page)).toBe('?brand=Gridmark&country=United States&page=7');
  });

  it('shortens an 8-page list at the start, in the middle and at the end', async () => {
    await open(FILTERS.eightPages);
    expect(await summary()).toBe('Showing 1–12 of 89 contacts');
    expect(await pagerText(page)).toBe('(Previous) [1] 2 3 4 5 … 8 Next');
    await pager(page).getByRole('link', { name: 'Page 4' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 2 3 [4] 5 … 8 Next');
    await pager(page).getByRole('link', { name: 'Next' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 … 4 [5] 6 7 8 Next');
    expect(await summary()).toBe('Showing 49–60 of 89 contacts');
    await pager(page).getByRole('link', { name: 'Page 8' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 … 4 5 6 7 [8] (Next)');
    expect(await cards(page).count()).toBe(5);
  });

  it('shortens a 30-page list with the current page and its neighbours between two ellipses', async () => {
    await open(FILTERS.thirtyPages);
    expect(await summary()).toBe('Showing 1–12 of 359 contacts');
    expect(await pagerText(page)).toBe('(Previous) [1] 2 3 4 5 … 30 Next');
    // The server-rendered page carries the contacts of pages 1 and 2; page 5 needs the next chunk.
    await pager(page).getByRole('link', { name: 'Page 5' }).click();
    await expect.poll(summary).toBe('Showing 49–60 of 359 contacts');
    expect(await pagerText(page)).toBe('Previous 1 … 4 [5] 6 … 30 Next');
    await pager(page).getByRole('link', { name: 'Page 6' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 … 5 [6] 7 … 30 Next');

    await open(`${FILTERS.thirtyPages}&page=15`);
    expect(await pagerText(page)).toBe('Previous 1 … 14 [15] 16 … 30 Next');
    expect(await summary()).toBe('Showing 169–180 of 359 contacts');
    await open(`${FILTERS.thirtyPages}&page=27`);
    expect(await pagerText(page)).toBe('Previous 1 … 26 [27] 28 29 30 Next');
    await pager(page).getByRole('link', { name: 'Page 30' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 … 26 27 28 29 [30] (Next)');
    expect(await cards(page).count()).toBe(11);
  });

  it('pages with real links, and clamps a page past the end to the last', async () => {
    await open(`${FILTERS.thirtyPages}&page=3`);
    const hrefs = await pager(page)
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual([
      '/?country=United+States&page=2',
      '/?country=United+States',
      '/?country=United+States&page=2',
      '/?country=United+States&page=3',
      '/?country=United+States&page=4',
      '/?country=United+States&page=5',
      '/?country=United+States&page=30',
      '/?country=United+States&page=4',
    ]);
    await open(`${FILTERS.eightPages}&page=99`);
    expect(await pagerText(page)).toBe('Previous 1 … 4 5 6 7 [8] (Next)');
  });

  it('puts the page shown in the address: a page past the end becomes the last, with or without JavaScript', async () => {
    // The server answers the address of the page it shows (a redirect, so no script is needed for it).
    const response = await fetch(`${server.baseUrl}/${FILTERS.eightPages}&page=99999`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/?country=Canada&page=8');
    await open(`${FILTERS.eightPages}&page=99999`);
    expect(searchOf(page)).toBe('?country=Canada&page=8');
    expect(await pagerText(page)).toBe('Previous 1 … 4 5 6 7 [8] (Next)');
    // Filters spelled otherwise than the lists spell them, and other parameters kept.
    await open('?utm_source=mail&country=canada&page=99');
    expect(searchOf(page)).toBe('?utm_source=mail&country=Canada&page=8');

    // An address the page reaches without the server (Back and Forward) is corrected in place.
    await page.evaluate(() => {
      history.pushState(null, '', '/?country=Canada&page=12345');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&page=8');
    expect(await pagerText(page)).toBe('Previous 1 … 4 5 6 7 [8] (Next)');

    const noScript = await watchedPage(browser, { javaScriptEnabled: false });
    try {
      await noScript.page.goto(`${server.baseUrl}/${FILTERS.eightPages}&page=99999`);
      expect(searchOf(noScript.page)).toBe('?country=Canada&page=8');
      expect(await noScript.page.locator('.locator__summary').innerText()).toBe('Showing 85–89 of 89 contacts');
      expect(noScript.problems).toEqual([]);
    } finally {
      await noScript.context.close();
    }
  });

  it('goes back to page 1 when a filter changes', async () => {
    await open(`${FILTERS.thirtyPages}&page=12`);
    expect(await summary()).toBe('Showing 133–144 of 359 contacts');
    await choose(page, 'Brand', 'Gridmark', 'GRIDMARK');
    await expect.poll(() => searchOf(page)).toBe('?brand=Gridmark&country=United States');
    await expect.poll(summary).toBe('Showing 1–12 of 82 contacts');
    expect(await pagerText(page)).toBe('(Previous) [1] 2 3 4 5 6 7 Next');
  });

  it('hides the pager when one page holds every contact', async () => {
    await open('?country=Canada&state=Ontario');
    expect(await summary()).toBe('Showing 1–12 of 12 contacts');
    expect(await pager(page).count()).toBe(0);
  });
});
