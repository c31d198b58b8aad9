/**
 * The page's content in Chromium against the real server: the banner picture (the width the browser
 * picks per viewport and density, AVIF by Accept, versioned and immutable, eager and first, no layout
 * shift), the support lines, the head of the first HTML from the SEO properties, the hidden regions
 * (viewchange event, data layer), and the fallbacks when content delivery fails on the server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Hono } from 'hono';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pageHandler } from '../../web/ssr/index.ts';
import { launchChromium } from '../support/browser.ts';
import { BANNER_IMAGE, COMMUNITY_ID } from '../support/content.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { choose, ROOT, searchOf, watchedPage, type WatchedPage } from './helpers.ts';

const SUPPORT_LABELS = ['US Customer Service', 'International Customer Service', 'Tech Support', 'Webstore Support'];
const SUPPORT_VALUES = ['(800) 555-0142', '(414) 555-0177', '(800) 555-0163', 'webstore@northgate-electrical.example'];
const IMMUTABLE = 'public, max-age=31536000, immutable';
const BANNER_IMG = '.banner__picture img';

/** Viewport width, device pixel ratio, and the banner width to ask for (640, 960 or 1920 at 1x or 2x). */
const PICTURE_CASES: [number, number, number][] = [
  [375, 1, 640],
  [375, 2, 1280],
  [800, 1, 960],
  [800, 2, 1920],
  [1280, 1, 1920],
  [1280, 2, 3840],
];

/** Records layout shifts, and the LCP element and its time, from the very start of the page. */
const OBSERVE_PAINT = `
  window.__cls = 0;
  window.__lcp = null;
  window.__lcpAt = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    const last = list.getEntries().at(-1);
    window.__lcp = last.element ? last.element.tagName + (last.element.closest('.banner__picture') ? ' in banner' : '') : last.url;
    window.__lcpAt = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** Records every viewchange event from the very start of the page. */
const OBSERVE_VIEW_CHANGES = `
  window.__viewChanges = [];
  window.addEventListener('viewchange', (event) => window.__viewChanges.push(event.detail));
`;

const hydrated = (page: Page) =>
  page.waitForFunction(() =>
    Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
  );

/** What OBSERVE_PAINT recorded, once the page has hydrated and painted a frame more (300 ms). */
async function paintedOnceHydrated(page: Page) {
  await hydrated(page);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 300))));
  return page.evaluate(() => {
    const { __cls, __lcp, __lcpAt } = window as unknown as { __cls: number; __lcp: string; __lcpAt: number };
    return { __cls, __lcp, __lcpAt };
  });
}

function resizeOptions(url: string): string {
  return /^\/cdn-cgi\/image\/([^/]+)\//.exec(new URL(url).pathname)?.[1] ?? '';
}

/** The head of a document, and its tags by what they are. */
function headOf(html: string) {
  const head = /<head>(.*?)<\/head>/s.exec(html)![1];
  const all = (pattern: RegExp) => [...head.matchAll(pattern)].map((match) => match[0]);
  return {
    head,
    title: /<title>(.*?)<\/title>/.exec(head)?.[1],
    description: /<meta name="description" content="([^"]*)">/.exec(head)?.[1],
    canonical: all(/<link rel="canonical"[^>]*>/g),
    alternates: all(/<link rel="alternate"[^>]*>/g),
    robots: all(/<meta name="robots"[^>]*>/g),
    /** Meta tags other than the page's own (viewport, description). */
    metas: all(/<meta (?:property|name)="[^"]*" content="[^"]*">/g).filter(
      (tag) => !/^<meta name="(?:viewport|description)"/.test(tag),
    ),
  };
}

describe('Page content in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage | undefined;

  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 50 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async () => {
    await watched?.context.close();
    expect(watched?.problems ?? []).toEqual([]);
    watched = undefined;
  });

  const open = async (options: Parameters<typeof watchedPage>[1] = {}) => {
    watched = await watchedPage(browser, options);
    return watched.page;
  };

  describe('the banner picture', () => {
    it.each(PICTURE_CASES)(
      'at %ipx wide and %ix density is asked for %i pixels wide, as AVIF, once',
      async (width, density, expected) => {
        const page = await open({ viewport: { width, height: 900 }, deviceScaleFactor: density });
        const images: Response[] = [];
        page.on('response', (response) => {
          if (response.url().includes('/sfsites/c/')) images.push(response);
        });
        await page.goto(`${server.baseUrl}/`);
        const img = page.locator(BANNER_IMG);
        await expect
          .poll(() => img.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0))
          .toBe(true);
        const { currentSrc, naturalWidth } = await img.evaluate((element: HTMLImageElement) => ({
          currentSrc: element.currentSrc,
          naturalWidth: element.naturalWidth,
        }));

        const options = resizeOptions(currentSrc);
        expect(options.split(',')[0]).toBe(`width=${expected}`);
        expect(options).toMatch(/(^|,)format=auto$/);
        expect(new URL(currentSrc).pathname).toBe(
          `/cdn-cgi/image/${options}/sfsites/c/cms/delivery/media/${BANNER_IMAGE.key}`,
        );
        expect(new URL(currentSrc).searchParams.get('version')).toBe('1.0');
        // In pixels of the file (naturalWidth is in CSS pixels, the density divided out). The server never
        // enlarges: 3840 gives the original's 2400.
        expect(naturalWidth * density).toBe(Math.min(expected, 2400));

        // One file, the chosen one, in the best format the browser names, kept for a year.
        expect(images.map((response) => response.url())).toEqual([currentSrc]);
        expect(await images[0].request().headerValue('accept')).toContain('image/avif');
        expect(await images[0].headerValue('content-type')).toBe('image/avif');
        expect(await images[0].headerValue('cache-control')).toBe(IMMUTABLE);
        expect(await images[0].headerValue('vary')).toBe('Accept');
      },
    );

    it('is eager and high priority, sized for a full-width banner, covering it, its buttons hidden', async () => {
      const page = await open();
      await page.addInitScript(OBSERVE_PAINT);
      await page.goto(`${server.baseUrl}/`);
      const img = page.locator(BANNER_IMG);
      expect(await img.getAttribute('loading')).toBe('eager');
      expect(await img.getAttribute('fetchpriority')).toBe('high');
      expect(await img.getAttribute('sizes')).toBe('100vw');
      expect([await img.getAttribute('width'), await img.getAttribute('height')]).toEqual(['2400', '800']);
      expect(await img.getAttribute('alt')).toBe('Power lines and factory roofs against an evening sky');
      const box = await page.locator('.banner').boundingBox();
      expect(box?.height).toBe(300);
      expect(box?.width).toBe(1280);
      // The picture fills the banner: covering it, centred.
      expect(
        await img.evaluate((element) => [
          getComputedStyle(element).objectFit,
          getComputedStyle(element).objectPosition,
        ]),
      ).toEqual(['cover', '50% 50%']);
      expect(await page.locator('.banner__content').evaluate((element) => getComputedStyle(element).color)).toBe(
        'rgb(255, 255, 255)',
      );
      // Both buttons are configured hidden on this page.
      expect(await page.locator('.banner').getByRole('link').count()).toBe(0);
    });

    it.each([375, 800, 1280])(
      'at %ipx shifts no layout while loading and hydrating, and is the largest paint, reported before the app is fetched',
      async (width) => {
        const page = await open({ viewport: { width, height: 900 } });
        await page.addInitScript(OBSERVE_PAINT);
        await page.goto(`${server.baseUrl}/`, { waitUntil: 'load' });
        const painted = await paintedOnceHydrated(page);
        expect(painted.__cls).toBe(0);
        expect(painted.__lcp).toBe('IMG in banner');
        // The app's code, every script but the page's entry, is asked for after the banner's paint was shown.
        const appFetchedAt = await page.evaluate(() => {
          const entry = document.querySelector<HTMLScriptElement>('script[type="module"][src^="/assets/"]')!.src;
          return performance
            .getEntriesByType('resource')
            .filter((resource) => resource.name.endsWith('.js') && resource.name !== entry)
            .map((resource) => resource.startTime);
        });
        expect(appFetchedAt.length).toBeGreaterThan(0);
        for (const at of appFetchedAt) expect(at).toBeGreaterThan(painted.__lcpAt);
      },
    );

    it.each([
      // After the banner's heading, before its introduction: the banner's texts are centred in it.
      ["after the banner's heading", (body: Buffer) => body.indexOf('<p', body.indexOf('banner__heading'))],
      // Inside the default contact's block, which is as wide as its texts: it grows as they come in.
      ['inside the default contact', (body: Buffer) => body.indexOf('<address class="default-contact__primary">')],
    ])(
      'is painted whole when its document arrives in two parts, cut %s, the second late: no shift',
      async (_, cutAt) => {
        // The cut falls inside the page, not at its start or end.
        const whole = Buffer.from(await (await fetch(`${server.baseUrl}/`)).arrayBuffer());
        expect(cutAt(whole)).toBeGreaterThan(whole.indexOf('<div id="root">'));
        expect(cutAt(whole)).toBeLessThan(whole.indexOf('</main>'));
        // A proxy that sends the document up to the cut, then the rest 500 ms later, as a slow network or a busy
        // server may (a browser parsing a long document also stops to paint on its own). The browser must paint
        // nothing of the page before its HTML is all in.
        const proxy = createServer((request, response) => {
          void (async () => {
            const upstream = await fetch(server.baseUrl + request.url, {
              headers: { accept: request.headers.accept ?? '*/*', 'accept-encoding': 'identity' },
            });
            const headers = Object.fromEntries(
              [...upstream.headers].filter(([name]) => !['content-length', 'content-encoding'].includes(name)),
            );
            response.writeHead(upstream.status, headers);
            const body = Buffer.from(await upstream.arrayBuffer());
            if (request.url !== '/') return void response.end(body);
            const cut = cutAt(body);
            response.write(body.subarray(0, cut));
            await new Promise((done) => setTimeout(done, 500));
            response.end(body.subarray(cut));
          })();
        });
        await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
        try {
          const page = await open({ viewport: { width: 800, height: 900 } });
          await page.addInitScript(OBSERVE_PAINT);
          await page.goto(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`, { waitUntil: 'load' });
          expect((await paintedOnceHydrated(page)).__cls).toBe(0);
        } finally {
          proxy.closeAllConnections();
          await new Promise((done) => proxy.close(done));
        }
      },
    );

    it('comes as WebP or JPEG to a browser that does not name AVIF', async () => {
      const html = await (await fetch(`${server.baseUrl}/`)).text();
      const src = /<img src="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
      for (const [accept, type] of [
        ['image/webp,*/*', 'image/webp'],
        ['image/*,*/*;q=0.8', 'image/jpeg'],
      ]) {
        const response = await fetch(server.baseUrl + src, { headers: { Accept: accept } });
        expect(response.headers.get('content-type'), accept).toBe(type);
        expect(response.headers.get('cache-control')).toBe(IMMUTABLE);
      }
    });
  });

  describe('the texts', () => {
    it('shows the heading and the four support lines, labels in order, already in the first HTML', async () => {
      const html = await (await fetch(`${server.baseUrl}/`)).text();
      const firstHtmlLabels = [...html.matchAll(/<dt class="support-lines__label">([^<]*)<\/dt>/g)].map(
        (match) => match[1],
      );
      expect(firstHtmlLabels).toEqual(SUPPORT_LABELS);

      const page = await open();
      await page.goto(`${server.baseUrl}/`);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(
        'Connect with an authorized sales representative in your area',
      );
      expect(await page.locator('.banner__heading').innerText()).toBe('Contact Us');
      expect(await page.locator('.banner__intro').innerText()).toBe(
        'Questions about a product, an order or an installation? We are here to help.',
      );
      const column = page.getByTestId('default-contact').locator('.default-contact__secondary');
      expect(await column.locator('dt').allInnerTexts()).toEqual(SUPPORT_LABELS);
      expect(await column.locator('dd').allInnerTexts()).toEqual(SUPPORT_VALUES);
      expect(await column.getByRole('link', { name: '(800) 555-0142' }).getAttribute('href')).toBe('tel:+18005550142');
      expect(await column.getByRole('link', { name: SUPPORT_VALUES[3] }).getAttribute('href')).toBe(
        `mailto:${SUPPORT_VALUES[3]}`,
      );
    });
  });

  describe('the head of the first HTML', () => {
    const setting = (sql: string, values: unknown[] = []) =>
      server.db.query(`UPDATE page_seo_setting SET ${sql} WHERE community_id = $1 AND page_name = 'contact_us'`, [
        COMMUNITY_ID,
        ...values,
      ]);
    let saved: Record<string, unknown>;

    beforeEach(async () => {
      const { rows } = await server.db.query<Record<string, unknown>>(
        `SELECT title, custom_head_tags, is_seo_indexed FROM page_seo_setting WHERE community_id = $1 AND page_name = 'contact_us'`,
        [COMMUNITY_ID],
      );
      saved = rows[0];
    });

    afterEach(async () => {
      await setting('title = $2, custom_head_tags = $3, is_seo_indexed = $4', [
        saved.title,
        saved.custom_head_tags,
        saved.is_seo_indexed,
      ]);
    });

    it('holds the title, description, canonical link, hreflang alternates and custom tags of the SEO properties', async () => {
      const { title, description, canonical, alternates, robots, metas } = headOf(
        await (await fetch(`${server.baseUrl}/`)).text(),
      );
      expect(title).toBe('Contact Us');
      expect(description).toBe(
        'Find contact details for Northgate Electrical Products and connect with an authorized sales representative in your area.',
      );
      expect(canonical).toEqual([
        '<link rel="canonical" href="https://store.northgate-electrical.example/contact-us">',
      ]);
      expect(alternates).toEqual([
        '<link rel="alternate" hreflang="en-US" href="https://store.northgate-electrical.example/contact-us">',
      ]);
      expect(robots).toEqual([]);
      expect(metas).toEqual([
        '<meta property="og:title" content="Contact Us">',
        '<meta property="og:type" content="website">',
      ]);

      const page = await open();
      await page.goto(`${server.baseUrl}/`);
      expect(await page.title()).toBe('Contact Us');
    });

    it('is made per request: a changed setting shows on the next page, noindex included, custom tags sanitised', async () => {
      await setting('title = $2, is_seo_indexed = false, custom_head_tags = $3', [
        'Contact Us & Support',
        '<script>document.title="owned"</script><meta name="x" content="y" onload="alert(1)"><link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" content="0;url=https://evil.example">',
      ]);
      const html = await (await fetch(`${server.baseUrl}/`)).text();
      const { head, title, robots, metas } = headOf(html);
      expect(title).toBe('Contact Us &#38; Support');
      expect(robots).toEqual(['<meta name="robots" content="noindex">']);
      expect(metas).toContain('<meta name="x" content="y">');
      expect(head).not.toMatch(/owned|onload|evil\.example|http-equiv/);
      expect(html.match(/<script/g)).toHaveLength(2); // the entry module and the query state only

      const page = await open();
      await page.goto(`${server.baseUrl}/`);
      await hydrated(page);
      expect(await page.title()).toBe('Contact Us & Support');
    });
  });

  describe('the hidden regions', () => {
    it('announces the view on hydration and on every change of address, and pushes the page data layer', async () => {
      const page = await open();
      await page.addInitScript(OBSERVE_VIEW_CHANGES);
      await page.goto(`${server.baseUrl}/`);
      const viewChanges = () => page.evaluate(() => (window as unknown as { __viewChanges: unknown[] }).__viewChanges);
      await expect.poll(viewChanges).toEqual([{ view: 'contact_us', recordId: '', url: '/' }]);
      expect(await page.evaluate(() => window.dataLayer)).toEqual([
        {
          event: 'pageView',
          page: {
            name: 'Contact Us',
            view: 'contact_us',
            type: 'namedPage',
            recordId: '',
            url: '/',
            locale: 'en-US',
            direction: 'ltr',
          },
          user: { type: 'guest' },
        },
      ]);

      await choose(page, 'Country', 'Canada');
      await expect.poll(() => searchOf(page)).toBe('?country=Canada');
      await expect.poll(viewChanges).toEqual([
        { view: 'contact_us', recordId: '', url: '/' },
        { view: 'contact_us', recordId: '', url: '/?country=Canada' },
      ]);
      await page.goBack();
      await expect
        .poll(async () => ((await viewChanges()) as { url: string }[]).map((detail) => detail.url))
        .toEqual(['/', '/?country=Canada', '/']);
      const dataLayer = (await page.evaluate(() => window.dataLayer)) as { page: { url: string }; user: unknown }[];
      expect(dataLayer.map((entry) => entry.page.url)).toEqual(['/', '/?country=Canada', '/']);
      expect(dataLayer.every((entry) => JSON.stringify(entry.user) === '{"type":"guest"}')).toBe(true);
    });
  });

  describe('when content delivery fails on the server', () => {
    const CONTENT_API = /\/connect\/(?:sites|cms)\/.*\/cms\/delivery\/contents|\/connect\/cms\/delivery\/channels\//;

    /** The page as the server renders it with the API's answers given by fetchApi. */
    async function renderWith(fetchApi: Parameters<typeof pageHandler>[0]['fetchApi']): Promise<string> {
      const app = new Hono();
      app.get('/', pageHandler({ webRoot: resolve(ROOT, 'dist/web'), fetchApi }));
      const response = await app.request(`${server.baseUrl}/`);
      expect(response.status).toBe(200);
      return response.text();
    }

    /** The page as the server renders it when content calls matching `failing` answer 503. */
    async function renderWithFailing(failing: (url: URL) => boolean): Promise<string> {
      return renderWith((request, env) => {
        if (!failing(new URL(request.url))) return server.app.fetch(request, env as never);
        const body = JSON.stringify([{ errorCode: 'SERVICE_UNAVAILABLE', message: 'Content delivery is unavailable' }]);
        return new globalThis.Response(body, {
          status: 503,
          statusText: 'Service Unavailable',
          headers: { 'Content-Type': 'application/json' },
        });
      });
    }

    it('renders the built-in texts and the default picture, and the browser then loads the real content', async () => {
      const html = await renderWithFailing((url) => CONTENT_API.test(url.pathname));
      // The page's markup, not its inline stylesheets (which name every class).
      const body = html.slice(html.indexOf('<body>'));
      const has = (text: string) => body.includes(text);
      expect(has('Connect with an authorized sales representative in your area')).toBe(true);
      expect(has('Questions about a product, an order or a project?')).toBe(true);
      expect(/<img src="[^"]*"/.exec(html)?.[0]).toBe(
        '<img src="/cdn-cgi/image/width=1920,format=auto/sfsites/c/img/contact-us-banner.jpg"',
      );
      expect(has('support-lines')).toBe(false);
      expect(has('Northgate Electrical Products, Inc.')).toBe(true);

      // The browser hydrates that page (no mismatch, no error), asks again, and shows the content.
      const page = await open();
      await page.route(`${server.baseUrl}/`, (route) =>
        route.fulfill({ body: html, contentType: 'text/html; charset=UTF-8' }),
      );
      await page.goto(`${server.baseUrl}/`);
      await hydrated(page);
      await expect.poll(() => page.locator('.support-lines dt').allInnerTexts()).toEqual(SUPPORT_LABELS);
      await expect
        .poll(() => page.locator('.banner__intro').innerText())
        .toBe('Questions about a product, an order or an installation? We are here to help.');
      await expect
        .poll(() => page.locator(BANNER_IMG).evaluate((element: HTMLImageElement) => element.currentSrc))
        .toContain('?version=1.0');
    });

    it('falls back to the content-key media path when the picture’s item is not among the references', async () => {
      const html = await renderWith(async (request, env) => {
        const response = await server.app.fetch(request, env as never);
        if (!new URL(request.url).pathname.endsWith('/cms/delivery/contents')) return response;
        const collection = (await response.json()) as { references: Record<string, unknown> | null };
        expect(Object.keys(collection.references ?? {})).toEqual([BANNER_IMAGE.key]);
        return globalThis.Response.json({ ...collection, references: {} });
      });
      expect(/<img src="[^"]*"/.exec(html)?.[0]).toBe(
        `<img src="/cdn-cgi/image/width=1920,format=auto/sfsites/c/cms/delivery/media/${BANNER_IMAGE.key}"`,
      );
      expect(html.includes('<dt class="support-lines__label">US Customer Service</dt>')).toBe(true);
      // Both fallback paths are served by the resizing service.
      for (const path of [
        `/sfsites/c/cms/delivery/media/${BANNER_IMAGE.key}`,
        '/sfsites/c/img/contact-us-banner.jpg',
      ]) {
        const response = await fetch(`${server.baseUrl}/cdn-cgi/image/width=640,format=auto${path}`, {
          headers: { Accept: 'image/avif' },
        });
        expect(response.status, path).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/avif');
      }
    });

    it('keeps the default head when the SEO properties cannot be read', async () => {
      const html = await renderWithFailing((url) => url.pathname.includes('/seo/properties/'));
      const { title, description, canonical } = headOf(html);
      expect(title).toBe('Contact Us');
      expect(description).toBe('Find contact details and an authorized sales representative in your area.');
      expect(canonical).toEqual([]);
    });
  });
});
