/**
 * Screenshots of the page at one width per device (mobile, tablet, desktop), for a look by eye (not a test):
 *   npx tsx tests/e2e/screenshots.ts [out-dir]       (default /tmp/storefront-screenshots)
 * Needs the production build (npm run build).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../support/browser.ts';
import { startTestServer } from '../support/server.ts';
import { combobox, DEMO_CONTACTS, FILTERS } from './helpers.ts';

const outDir = process.argv[2] ?? '/tmp/storefront-screenshots';
const WIDTHS = [375, 800, 1280];

mkdirSync(outDir, { recursive: true });
const server = await startTestServer({ demoContacts: DEMO_CONTACTS });
const browser = await launchChromium();
try {
  for (const width of WIDTHS) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const shoot = async (name: string, fullPage = true) => {
      const path = join(outDir, `${name}-${width}.png`);
      await page.screenshot({ path, fullPage });
      console.log(path);
    };
    await page.goto(`${server.baseUrl}/`);
    await shoot('home');
    await page.goto(`${server.baseUrl}/${FILTERS.thirtyPages}&page=15`);
    await shoot('cards');
    await combobox(page, 'Country').click();
    await combobox(page, 'Country').fill('uni');
    await combobox(page, 'Country').press('ArrowDown');
    await page.locator('.locator__filters').scrollIntoViewIfNeeded();
    await shoot('combobox-open', false);
    await page.goto(`${server.baseUrl}/${FILTERS.noMatch}`);
    await shoot('no-match');
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
