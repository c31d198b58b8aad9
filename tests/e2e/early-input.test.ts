/**
 * No input before hydration is lost (web/src/early-input.ts). The page's app is fetched after the banner's
 * paint, so a visitor on a slow phone can press a combobox of the server's page before the app has hydrated
 * it. Here the CPU is slowed 4× and the app's script is held back until the visitor has acted, so that every
 * try acts on the server's page before hydration (checked each time); then the app arrives, and the list must
 * open, or the typed text be kept and searched, 20 times of 20 (clicks, taps and typing in turn).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const TRIES = 3;
const COUNTRY = 'input[placeholder="--Select Country--"]';

type Action = 'click' | 'tap' | 'type';

interface Try {
  /** Whether the app had hydrated the page when the visitor acted (never, with its script held back). */
  hydratedBefore: boolean;
  /** The combobox's state once the app has hydrated the page. */
  expanded: string | null;
  value: string;
  focused: boolean;
}

async function tryOnce(context: BrowserContext, baseUrl: string, action: Action): Promise<Try> {
  const page: Page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  let release!: () => void;
  const acted = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/main-[^/]+\.js$/, async (route) => {
    await acted;
    await route.continue();
  });
  try {
    await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
    const country = page.locator(COUNTRY);
    await country.waitFor({ state: 'visible' });
    await country.scrollIntoViewIfNeeded();
    const box = (await country.boundingBox())!;
    const hydratedBefore = await page.evaluate(() =>
      Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
    );
    const [x, y] = [box.x + 24, box.y + box.height / 2];
    if (action === 'tap') await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
    if (action === 'type') await page.keyboard.type('can');
    release();
    await page.waitForFunction(() =>
      Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
    );
    // The app replays the input in its first effect, after hydration: give it its frame.
    await page
      .waitForFunction(
        (selector) => document.querySelector(selector)?.getAttribute('aria-expanded') === 'true',
        COUNTRY,
        {
          timeout: 5_000,
        },
      )
      .catch(() => undefined);
    const result = await country.evaluate((input: HTMLInputElement) => ({
      expanded: input.getAttribute('aria-expanded'),
      value: input.value,
      focused: document.activeElement === input,
    }));
    expect(errors).toEqual([]);
    return { hydratedBefore, ...result };
  } finally {
    release();
    await page.close();
  }
}

describe('input before hydration (CPU slowed 4×)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 100 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a click, a tap or typing on a combobox before hydration is not lost, 20 times of 20', async () => {
    const mouse = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const touch = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 412, height: 915 } });
    try {
      const actions: Action[] = Array.from(
        { length: TRIES },
        (_, attempt) => (['click', 'tap', 'type'] as const)[attempt % 3],
      );
      const tries: Array<Try & { action: Action }> = [];
      for (const action of actions)
        tries.push({ action, ...(await tryOnce(action === 'tap' ? touch : mouse, server.baseUrl, action)) });
      expect(tries).toEqual(
        actions.map((action) => ({
          action,
          hydratedBefore: false,
          expanded: 'true',
          value: action === 'type' ? 'can' : '',
          focused: true,
        })),
      );
    } finally {
      await mouse.close();
      await touch.close();
    }
  }, 180_000);
});
