/**
 * The sign-in page as a visitor meets it: in the store's frame (the banner with the store's picture, the
 * footer), on desktop and on a phone, with and without JavaScript; asking for the e-mail address users sign
 * in with; used with the keyboard alone, its errors tied to their fields and announced; axe clean.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import { DEMO_USERS } from '../support/session.ts';
import { type WatchedPage, usePageSession, axeViolations } from './helpers.ts';

const REFUSED = 'The e-mail address or the password is not right. Check them and try again.';

/** What has the keyboard focus: its role or tag and its accessible text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    const label = element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined;
    return `${element.tagName.toLowerCase()}: ${(label ?? element.textContent ?? '').trim()}`;
  });
}

/** The page once React runs it (the Sign in button is enabled then). */
async function openSignIn(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isEnabled()).toBe(true);
}

describe('Sign-in page in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({ demoContacts: 20 }, (session) => ({ server, browser, watched, page } = session));

  it('is in the store’s frame: the banner with the store’s picture and the page’s h1, the form in the main landmark, the footer', async () => {
    await page.goto(`${server.baseUrl}/`);
    const storePicture = await page.locator('.banner .banner__picture img').getAttribute('src');
    expect(storePicture).toBeTruthy();

    await openSignIn(page, `${server.baseUrl}/login`);
    expect(await page.title()).toBe('Sign in');
    const banner = page.getByRole('banner');
    expect(await banner.getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
    expect(await banner.locator('.banner__picture img').getAttribute('src')).toBe(storePicture);
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const main = page.getByRole('main');
    expect(await main.getByRole('form', { name: 'Sign in' }).count()).toBe(1);
    // Users sign in with their e-mail address: the field says so, and is one.
    const email = main.getByRole('textbox', { name: 'E-mail address' });
    expect(await email.getAttribute('type')).toBe('email');
    expect(await email.getAttribute('autocomplete')).toBe('username');
    expect(await main.getByText('Username').count()).toBe(0);
    expect(await main.getByLabel('Password').getAttribute('autocomplete')).toBe('current-password');
    // The footer, with the way back rather than a link to this page.
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByRole('link').allInnerTexts()).toEqual(['Contact Us']);
    expect(await footer.getByRole('link').getAttribute('href')).toBe('/');
    // The store's look: its stylesheet, its card and button.
    expect(await main.locator('.sign-in__card').evaluate((card) => getComputedStyle(card).borderRadius)).toBe('8px');
    expect(
      await main
        .getByRole('button', { name: 'Sign in' })
        .evaluate((button) => getComputedStyle(button).backgroundColor),
    ).toBe('rgb(11, 92, 171)');
    // The footer sits at the bottom of the window.
    const footerBottom = await footer.evaluate((element) => element.getBoundingClientRect().bottom);
    expect(footerBottom).toBe(page.viewportSize()!.height);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('fits a phone: nothing wider than the screen, the form under the banner, axe clean', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openSignIn(page, `${server.baseUrl}/login`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    const card = await page.locator('.sign-in__card').boundingBox();
    expect(card!.x).toBeGreaterThanOrEqual(16);
    expect(card!.x + card!.width).toBeLessThanOrEqual(390 - 16);
    expect(card!.y + card!.height).toBeLessThan(844);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is used with the keyboard alone: fields in order, each error on its field, the refusal announced, then signed in', async () => {
    await openSignIn(page, `${server.baseUrl}/login?startURL=%2F%3Fcountry%3DCanada`);
    // From the top of the page, Tab reaches the fields, the button and the links in reading order.
    const stops: string[] = [];
    for (let presses = 0; presses < 6; presses++) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
    }
    expect(stops).toEqual([
      'input: E-mail address',
      'input: Password',
      'button: Sign in',
      'a: Back to Contact Us',
      'a: Contact Us',
      'body',
    ]);

    // Enter on the button with nothing filled in: both fields are invalid, each described by its message,
    // and the focus goes to the first.
    await page.getByRole('button', { name: 'Sign in' }).focus();
    await page.keyboard.press('Enter');
    const email = page.getByRole('textbox', { name: 'E-mail address' });
    const password = page.getByLabel('Password');
    expect(await focused(page)).toBe('input: E-mail address');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await email.getAttribute('aria-describedby')}"]`).innerText()).toBe(
      'Enter your e-mail address.',
    );
    expect(await page.locator(`[id="${await password.getAttribute('aria-describedby')}"]`).innerText()).toBe(
      'Enter your password.',
    );
    expect(await axeViolations(page)).toEqual([]);

    // Not an e-mail address: said so, on that field.
    await page.keyboard.type('user');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('input: E-mail address');
    expect(await page.locator(`[id="${await email.getAttribute('aria-describedby')}"]`).innerText()).toBe(
      'Enter an e-mail address like name@example.com.',
    );

    // A wrong password: the refusal is announced in an alert, and the focus stays where it was.
    await email.fill(DEMO_USERS.standard.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type('not the password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).innerText()).toBe(REFUSED);
    expect(await focused(page)).toBe('input: Password');
    watched.problems.splice(
      0,
      watched.problems.length,
      ...watched.problems.filter((problem) => !/\b401\b/.test(problem)),
    );
    expect(await axeViolations(page)).toEqual([]);

    // The right one: back to the page the visitor came from, signed in.
    await password.fill(server.passwords.standard);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/?country=Canada`);
    await expect.poll(() => page.getByRole('contentinfo').innerText()).toMatch(/^Signed in as .+\s+Log out$/);
  });

  it('without JavaScript: the same frame and form, and it says that signing in needs JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    try {
      const noScript = await context.newPage();
      await noScript.goto(`${server.baseUrl}/login`);
      expect(await noScript.getByRole('banner').getByRole('heading', { level: 1 }).innerText()).toBe('Sign in');
      expect(await noScript.getByRole('textbox', { name: 'E-mail address' }).count()).toBe(1);
      expect(await noScript.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
      // (Playwright's text search leaves <noscript> out: the paragraph is found by its place.)
      const notice = noScript.locator('form.sign-in__form noscript > p');
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.innerText()).toBe('Signing in needs JavaScript.');
      expect(await noScript.getByRole('contentinfo').getByRole('link').allInnerTexts()).toEqual(['Contact Us']);
    } finally {
      await context.close();
    }
  });
});
