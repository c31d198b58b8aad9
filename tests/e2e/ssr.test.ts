/**
 * Server rendering and the URL: the first HTML already holds the default contact and the cards of the
 * URL's filters; the browser hydrates without a mismatch (checked with React's development build, which
 * reports attribute mismatches too); shared links, back and forward; the page without JavaScript.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import type { LoadedPageContent } from '../../web/src/content.ts';
import {
  cards,
  choose,
  combobox,
  DEMO_CONTACTS,
  developmentBuild,
  routeDevelopmentBuild,
  FILTERS,
  pager,
  pagerText,
  ROOT,
  searchOf,
  watchedPage,
  type WatchedPage,
  usePageSession,
} from './helpers.ts';

describe('Server-rendered page', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  usePageSession({ demoContacts: DEMO_CONTACTS }, (session) => ({ server, browser, page } = session));

  it('answers HTML that holds the default contact, the cards of the URL and the data, compressed', async () => {
    const response = await fetch(`${server.baseUrl}/${FILTERS.sevenPages}&page=2`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html><html lang="en-US" dir="ltr">/);
    expect(html).toContain('Northgate Electrical Products, Inc.');
    expect(html.match(/data-testid="contact-card"/g)).toHaveLength(12);
    expect(html).toContain('Showing 13–24 of 82 contacts');
    expect(html).toContain('href="/?brand=Gridmark&amp;country=United+States&amp;page=3"');
    // The stylesheets inline (the first paint waits for no other request), allowed by the policy's hash.
    expect(html).not.toContain('rel="stylesheet"');
    const css = /<style>(.*?)<\/style>/s.exec(html)?.[1];
    expect(css).toContain('.banner');
    expect(response.headers.get('content-security-policy')).toContain(
      `'sha256-${createHash('sha256').update(css!).digest('base64')}'`,
    );
    expect(html).toMatch(/<script type="module" src="\/assets\/index-[\w-]+\.js"><\/script>/);

    const state = /<script id="query-state" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(state).toBeDefined();
    expect(state).not.toMatch(/[<>]/);
    const { queries } = JSON.parse(state!) as {
      queries: { queryKey: [string, unknown]; state: { status: string; data: unknown } }[];
    };
    // The SEO properties are in the head, not in the state: no part of the page reads them. The content
    // travels as the page shows it (pageContent), not as content delivery's answers.
    expect(queries.map((query) => query.queryKey[0]).sort()).toEqual([
      'getContacts',
      'getDefaultContacts',
      'getDependentStatePicklistsValues',
      'getObjectInfo',
      'getPicklistValues',
      'getSession',
      'pageContent',
    ]);
    const content = queries.find((query) => query.queryKey[0] === 'pageContent')!.state.data as LoadedPageContent;
    expect(content.complete).toBe(true);
    expect(content.content.heading).toBe('Connect with an authorized sales representative in your area');
    // Only the contacts of the page shown and the next one travel with the page, not the whole chunk.
    const contacts = queries.find((query) => query.queryKey[0] === 'getContacts')!.state.data as {
      pages: { contacts: unknown[] }[];
    };
    expect(contacts.pages.flatMap((chunk) => chunk.contacts)).toHaveLength(36);
    // Of the country-to-states map, every country and the chosen country's states only: the browser fetches
    // the whole map once the page is hydrated.
    const map = queries.find((query) => query.queryKey[0] === 'getDependentStatePicklistsValues')!.state.data as Record<
      string,
      string[]
    >;
    expect(Object.keys(map).length).toBeGreaterThan(200);
    expect(map['United States']).toContain('California');
    expect(
      Object.entries(map)
        .filter(([, states]) => states.length > 0)
        .map(([country]) => country),
    ).toEqual(['United States']);
  });

  it('sends a light first HTML, and the whole map of states once the page is interactive', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    expect(gzipSync(html).length, 'the first HTML of /, gzipped').toBeLessThanOrEqual(25 * 1024);
    expect(html).not.toContain('Ontario');

    const mapRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('getDependentStatePicklistsValues')) mapRequests.push(request.method());
    });
    await page.goto(`${server.baseUrl}/`);
    await choose(page, 'Country', 'Canada');
    await choose(page, 'State/Province', 'Onta', 'ONTARIO');
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&state=Ontario');
    expect(mapRequests).toEqual(['GET']);
  });

  it('serves the hashed assets precompressed and immutable', async () => {
    const html = await (await fetch(`${server.baseUrl}/`)).text();
    const script = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)![1];
    const response = await fetch(server.baseUrl + script, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await response.text()).length).toBeGreaterThan(1000);
  });

  it('hydrates without a single mismatch in React’s development build', async () => {
    const build = await developmentBuild(resolve(ROOT, 'web'));
    try {
      // The server's HTML as it is; only the scripts are the development build's.
      await routeDevelopmentBuild(page, build);
      const messages: string[] = [];
      page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
      for (const search of ['', `${FILTERS.eightPages}&page=5`, FILTERS.noMatch]) {
        await page.goto(`${server.baseUrl}/${search}`);
        await page.waitForFunction(() =>
          Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
        );
        // Proof that React runs: a change from the page itself.
        await combobox(page, 'Brand').click();
        await expect.poll(() => combobox(page, 'Brand').getAttribute('aria-expanded')).toBe('true');
        await combobox(page, 'Brand').press('Escape');
      }
      expect(messages.filter((message) => /^(error|warning)/.test(message))).toEqual([]);
    } finally {
      rmSync(build.outDir, { recursive: true, force: true });
    }
  });

  it('opens a shared link with its filters and page', async () => {
    await page.goto(`${server.baseUrl}/?country=Canada&state=Ontario`);
    expect(await combobox(page, 'Country').inputValue()).toBe('Canada');
    expect(await combobox(page, 'State/Province').inputValue()).toBe('ONTARIO');
    for (const text of await cards(page).allInnerTexts()) expect(text).toContain('Ontario');

    // Case and unknown values of a hand-made link are corrected.
    await page.goto(`${server.baseUrl}/?brand=gridmark&country=united+states&state=Atlantis&page=2`);
    expect(await combobox(page, 'Brand').inputValue()).toBe('GRIDMARK');
    expect(await combobox(page, 'Country').inputValue()).toBe('United States');
    expect(await combobox(page, 'State/Province').inputValue()).toBe('');
    expect(await pagerText(page)).toBe('Previous 1 [2] 3 4 5 6 7 Next');
  });

  it('goes back and forward through filters and pages', async () => {
    await page.goto(`${server.baseUrl}/`);
    await choose(page, 'Country', 'Canada');
    await expect.poll(() => cards(page).count()).toBe(12);
    await pager(page).getByRole('link', { name: 'Page 2' }).click();
    await expect.poll(() => pagerText(page)).toBe('Previous 1 [2] 3 4 5 … 8 Next');
    await choose(page, 'State/Province', 'onta', 'ONTARIO');
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&state=Ontario');

    await page.goBack();
    await expect.poll(() => searchOf(page)).toBe('?country=Canada&page=2');
    await expect.poll(() => combobox(page, 'State/Province').inputValue()).toBe('');
    await expect.poll(() => pagerText(page)).toBe('Previous 1 [2] 3 4 5 … 8 Next');
    await page.goBack();
    await expect.poll(() => pagerText(page)).toBe('(Previous) [1] 2 3 4 5 … 8 Next');
    await page.goBack();
    await expect.poll(() => page.getByText('No Contacts to display').count()).toBe(1);
    expect(await combobox(page, 'Country').inputValue()).toBe('');

    await page.goForward();
    await expect.poll(() => combobox(page, 'Country').inputValue()).toBe('Canada');
    await page.goForward();
    await page.goForward();
    await expect.poll(() => combobox(page, 'State/Province').inputValue()).toBe('ONTARIO');
    // The summary follows the cards' query, which may answer a moment after the address changed.
    await expect.poll(() => page.locator('.locator__summary').innerText()).toBe('Showing 1–12 of 12 contacts');
  });

  describe('without JavaScript', () => {
    let noScript: WatchedPage;

    beforeEach(async () => {
      noScript = await watchedPage(browser, { javaScriptEnabled: false });
    });

    afterEach(async () => {
      await noScript.context.close();
      expect(noScript.problems).toEqual([]);
    });

    it('shows the cards of the URL and pages with plain links', async () => {
      const { page } = noScript;
      await page.goto(`${server.baseUrl}/${FILTERS.eightPages}`);
      expect(await page.getByTestId('default-contact').getByRole('heading').innerText()).toBe(
        'Northgate Electrical Products, Inc.',
      );
      expect(await cards(page).count()).toBe(12);
      const firstOnPage1 = await cards(page).first().innerText();
      await pager(page).getByRole('link', { name: 'Page 2' }).click();
      await page.waitForURL(/page=2/);
      expect(await page.locator('.locator__summary').innerText()).toBe('Showing 13–24 of 89 contacts');
      expect(await cards(page).first().innerText()).not.toBe(firstOnPage1);
      await pager(page).getByRole('link', { name: 'Next' }).click();
      await page.waitForURL(/page=3/);
      expect(await pagerText(page)).toBe('Previous 1 2 [3] 4 5 … 8 Next');
    });

    it('filters with the plain form that stands in for the comboboxes', async () => {
      const { page } = noScript;
      await page.goto(`${server.baseUrl}/`);
      expect(await page.locator('.locator__filters').isVisible()).toBe(false);
      const form = page.locator('form.locator__fallback');
      await form.getByLabel('Country').selectOption('Canada');
      await form.getByRole('button', { name: 'Show contacts' }).click();
      await page.waitForURL(/country=Canada/);
      expect(await cards(page).count()).toBe(12);
      // The state list now holds the chosen country's provinces.
      await form.getByLabel('State/Province').selectOption('Ontario');
      await form.getByLabel('Brand').selectOption('Ironspan');
      await form.getByRole('button', { name: 'Show contacts' }).click();
      await page.waitForURL(/state=Ontario/);
      expect(await page.locator('.locator__summary').innerText()).toBe('Showing 1–6 of 6 contacts');
      // A state left from another country is dropped.
      await form.getByLabel('Country').selectOption('Mexico');
      await form.getByRole('button', { name: 'Show contacts' }).click();
      await page.waitForURL(/country=Mexico/);
      expect(await form.getByLabel('State/Province').inputValue()).toBe('');
      expect(await cards(page).count()).toBeGreaterThan(0);
      for (const text of await cards(page).allInnerTexts()) expect(text).toContain('Mexico');
    });
  });
});
