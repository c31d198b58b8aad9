/** Debian's Chromium driven by playwright-core. */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/lib/chromium.ts';

export { CHROMIUM };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
