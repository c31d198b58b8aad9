/**
 * Shared pieces of the end-to-end tests: a watched page, axe, the comboboxes, the pager, development builds.
 */
import AxeBuilder from '@axe-core/playwright';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/server.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

/** What axe finds wrong on the page as it is: each violation's rule and the elements it names. */
export async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
  );
}

/**
 * The demo data the locator tests rely on (deterministic, with 800 contacts): how many contacts match,
 * and so how many pages of 12 there are.
 */
export const DEMO_CONTACTS = 800;
export const FILTERS = {
  /** 82 contacts: 7 pages, every page listed. */
  sevenPages: '?brand=Gridmark&country=United+States',
  /** 89 contacts: 8 pages, the first ellipsis rules. */
  eightPages: '?country=Canada',
  /** 359 contacts: 30 pages. */
  thirtyPages: '?country=United+States',
  /** Nothing matches. */
  noMatch: '?brand=Gridmark&country=Canada&state=Yukon',
} as const;

/**
 * Opens a back-office address in the page that shows the back office, as a link in it would: the screen's first
 * queries are then asked for by the browser, not answered in the document (web/ssr/back-office.ts).
 */
export async function openInBackOffice(page: Page, path: string): Promise<void> {
  await page.evaluate((href) => {
    window.history.pushState(null, '', href);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, hydration warnings, page errors, failed responses and requests off this machine. */
  problems: string[];
}

/** A new page that records every console error or warning about hydration, page error and HTTP error. */
/**
 * Resolves once the page's app has hydrated it: the storefront fetches its app after the page has loaded,
 * so a visitor's first clicks come a moment after the load event. A document without the app (an error
 * page, the docs) or a browser without JavaScript at once.
 */
export async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    const app = document.querySelector('script[type="module"][src^="/assets/"]');
    // Without scripting the browser parses what <noscript> holds as markup: no app will come.
    const scripting = !document.querySelector('noscript > style');
    // A representative's page loads no app (boot.ts): it is complete as the server made it.
    const withoutApp = location.pathname.startsWith('/reps/');
    return (
      !root || !app || !scripting || withoutApp || Object.keys(root).some((key) => key.startsWith('__reactContainer'))
    );
  });
}

/** Every navigation and reload of the page waits, as goto waits for the load event, until the app has hydrated it. */
export function waitForHydration(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await untilHydrated(page);
    return response;
  };
  return page;
}

export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = waitForHydration(await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' || /hydrat|did not match|didn't match/i.test(text))
      problems.push(`${message.type()}: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:')
      problems.push(`off-machine request: ${url}`);
  });
  return { context, page, problems };
}

export function combobox(page: Page, label: string): Locator {
  return page.getByRole('combobox', { name: label, exact: true });
}

/** Chooses an option the way a visitor does: type part of its label, click it in the list. */
export async function choose(page: Page, label: string, search: string, option = search): Promise<void> {
  const box = combobox(page, label);
  await box.click();
  await box.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => box.inputValue()).toBe(option);
}

/** The labels of the open listbox's options. */
export async function optionLabels(page: Page, label: string): Promise<string[]> {
  const listbox = page.locator(`#${await combobox(page, label).getAttribute('aria-controls')}`);
  return listbox.getByRole('option').allInnerTexts();
}

export function cards(page: Page): Locator {
  return page.getByTestId('contact-card');
}

export function pager(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Pagination' });
}

/** The pager as text: page numbers, "…", with the current page in brackets, e.g. "1 … 4 [5] 6 … 30". */
export async function pagerText(page: Page): Promise<string> {
  return pager(page).evaluate((nav) =>
    [...nav.querySelectorAll('li')]
      .map((item) => {
        const link = item.querySelector('a');
        const text = (item.textContent ?? '').trim();
        if (!link) return text;
        if (link.getAttribute('aria-disabled') === 'true') return `(${text})`;
        return link.getAttribute('aria-current') === 'page' ? `[${text}]` : text;
      })
      .join(' '),
  );
}

/** The query string of the page's address, decoded for reading. */
export function searchOf(page: Page): string {
  return decodeURIComponent(new URL(page.url()).search.replace(/\+/g, ' '));
}

const MIME: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
};

/**
 * Builds a web entry with React's development code (which reports every hydration mismatch, attributes
 * included) into a temporary directory; returns the directory and the entry's files from its manifest.
 */
export async function developmentBuild(
  root: string,
  base = '/assets-dev/',
): Promise<{ outDir: string; entry: string; read(path: string): { body: Buffer; contentType: string } }> {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const outDir = mkdtempSync(join(tmpdir(), 'storefront-dev-build-'));
  await build({
    configFile: false,
    root,
    base,
    mode: 'development',
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': JSON.stringify('development') },
    build: { outDir, emptyOutDir: true, minify: false, manifest: true, reportCompressedSize: false },
  });
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry)!.file;
  return {
    outDir,
    entry,
    read: (path) => ({
      body: readFileSync(join(outDir, path)),
      contentType: MIME[extname(path)] ?? 'application/octet-stream',
    }),
  };
}

/**
 * Serves the page's scripts from a development build of the web app: the entry in place of the page's own,
 * and the chunks it imports (the app, once the page has loaded; the session checks) from beside it. Those
 * import the entry back by the name the page loaded it under, or it would run twice.
 */
export async function routeDevelopmentBuild(
  page: Page,
  build: Awaited<ReturnType<typeof developmentBuild>>,
): Promise<void> {
  const devEntry = build.entry.split('/').pop()!;
  let pageEntry = devEntry;
  // A chunk loaded on demand preloads the stylesheets it names, at the build's own base.
  await page.route(/\/assets-dev\/assets\/[\w-]+\.css$/, (route) =>
    route.fulfill(build.read(`assets/${new URL(route.request().url()).pathname.split('/').pop()!}`)),
  );
  await page.route(/\/assets\/[\w-]+\.js$/, (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    if (name.startsWith('index-')) {
      pageEntry = name;
      return route.fulfill(build.read(build.entry));
    }
    const chunk = build.read(`assets/${name}`);
    return route.fulfill({
      contentType: chunk.contentType,
      body: chunk.body.toString('utf8').replaceAll(devEntry, pageEntry),
    });
  });
}

const WEB_BUILD = resolve(ROOT, 'dist/web/.vite/manifest.json');

export interface PageSession {
  server: TestServer;
  browser: Browser;
  watched: WatchedPage;
  page: Page;
}

/**
 * Registers the hooks every page test needs: a test server and Chromium for the file, a watched page for each
 * test, and after each test no console error, hydration warning, HTTP error or request off this machine.
 * `use` gets the session whenever it changes (after the file's setup and before each test).
 */
export function usePageSession(options: TestServerOptions, use: (session: PageSession) => void): void {
  const session = {} as PageSession;
  beforeAll(async () => {
    if (!existsSync(WEB_BUILD)) throw new Error('The web app is not built: npm test builds it (npm run build).');
    session.server = await startTestServer(options);
    session.browser = await launchChromium();
    use(session);
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  beforeEach(async () => {
    session.watched = await watchedPage(session.browser);
    session.page = session.watched.page;
    use(session);
  });
  afterEach(async () => {
    await session.watched.context.close();
    expect(session.watched.problems).toEqual([]);
  });
}
