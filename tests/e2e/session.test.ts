/**
 * The session on the page, in Chromium (issue #6): a user signs in on the sign-in page, idles until the
 * "Still there?" dialog (at T-30 s, not before), continues; idles again and is signed out, with the timeout
 * toast. Log Out, Close and Escape with focus trapped and restored, an invalid session, two tabs in step, the
 * footer's Log out, the server rendering for the request's session, hydration, axe. The test server's idle
 * timeout is 40 s; its clock and the page's (Playwright's page.clock) are moved together, so no test waits
 * for real. What stores sessions runs on each database; the rest of the page's behaviour on PGlite only.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../server/app-options.ts';
import { databases, type TestServer } from '../support/server.ts';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEMO_USERS, signIn as signInOverHttp } from '../support/session.ts';
import {
  developmentBuild,
  ROOT,
  routeDevelopmentBuild,
  type WatchedPage,
  usePageSession,
  waitForHydration,
  axeViolations,
} from './helpers.ts';

const IDLE_SECONDS = 40;
const WARNING_SECONDS = 30;
const TITLE = 'Still there?';
const TEXT =
  "For security, we suspend your session if you're inactive too long. If you don't click Continue Working within approximately 30 seconds, we log you out.";
const TOAST = 'Your session has timed out. Try again.';

/** The server's clock: real time plus however far the tests have moved it. */
let offsetMs = 0;
const serverClock: Clock = { now: () => Date.now() + offsetMs };

const dialog = (page: Page) => page.getByRole('dialog', { name: TITLE });
const footer = (page: Page) => page.locator('footer.site-footer');
const isSessionRead = (url: string, method: string) =>
  method === 'GET' && new URL(url).pathname === '/services/auth/session';
/** Tabs in the background run their timers late: what one tab does reaches another within seconds. */
const SOON = { timeout: 10_000 };

/** Takes the expected refusals out of the page's problems (the HTTP status and Chromium's console line for it). */
function expectRefused(problems: string[], paths: string[]): void {
  const refusedPath = (problem: string) => new URL(problem.slice(4)).pathname;
  expect(problems.filter((problem) => problem.startsWith('401 ')).map(refusedPath)).toEqual(paths);
  const isRefusal = (problem: string) => problem.startsWith('401 ') || /status of 401 \(Unauthorized\)/.test(problem);
  problems.splice(0, problems.length, ...problems.filter((problem) => !isRefusal(problem)));
}

/** The user data the server rendered the page for, from the session answer that travels with it. */
function renderedSession(html: string): { isGuest: boolean; userId: string } | undefined {
  const state = /<script id="query-state" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
  const queries = (
    JSON.parse(state ?? '{"queries":[]}') as { queries: { queryKey: [string]; state: { data: unknown } }[] }
  ).queries;
  return queries.find((query) => query.queryKey[0] === 'getSession')?.state.data as
    { isGuest: boolean; userId: string } | undefined;
}

/** Waits for the validator's own reading of the session (it schedules from that answer). */
function validatorStarted(page: Page) {
  return page.waitForResponse((response) => isSessionRead(response.url(), response.request().method()));
}

describe.each(databases())('Session in Chromium (%s)', (database) => {
  /** The page's behaviour does not depend on the database: on PostgreSQL only what stores sessions runs. */
  const pgliteOnly = (name: string, test: () => Promise<void>) => {
    if (database === 'pglite') it(name, test);
  };
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession(
    { database, demoContacts: 50, app: { clock: serverClock, session: { idleTimeoutSeconds: IDLE_SECONDS } } },
    (session) => ({ server, watched, page } = session),
  );

  /** Moves the server's clock, then the page's (whose timers then fire, and may call the server). */
  async function idle(seconds: number, pages: Page[] = [page]) {
    offsetMs += seconds * 1000;
    for (const each of pages) await each.clock.runFor(seconds * 1000);
  }

  /** Signs in on the sign-in page as the standard user; back on the Contact Us page once the validator runs. */
  async function signIn(target: Page = page) {
    await target.clock.install();
    await target.goto(`${server.baseUrl}/login`);
    await target.getByLabel('E-mail address').fill(DEMO_USERS.standard.username);
    await target.getByLabel('Password').fill(server.passwords.standard);
    const started = validatorStarted(target);
    await target.getByRole('button', { name: 'Sign in' }).click();
    await target.waitForURL(`${server.baseUrl}/`);
    await started;
    await expect.poll(() => footer(target).innerText(), SOON).toMatch(/^Signed in as .+\s+Log out$/);
  }

  it('signs in, warns at T-30 s and not before, continues; idles again and is signed out with the toast', async () => {
    await signIn();
    // The page rendered on the server for the user, and the user data provider says so.
    const entry = await page.evaluate(() => (window.dataLayer as { user: unknown }[]).at(-1)!.user);
    expect(entry).toEqual({ type: 'user', id: DEMO_USERS.standard.userId });

    // Real time passes too (for the page to load and the test to act, more on a busy machine): the margins allow for it.
    await idle(IDLE_SECONDS - WARNING_SECONDS - 6);
    await page.waitForTimeout(300);
    expect(await dialog(page).isVisible()).toBe(false);
    await idle(6.5);
    await dialog(page).waitFor();
    expect(await dialog(page).getByRole('heading').innerText()).toBe(TITLE);
    expect(await dialog(page).locator('p').first().innerText()).toBe(TEXT);
    expect(await dialog(page).getByRole('button').allInnerTexts()).toEqual(['×', 'Log Out', 'Continue Working']);
    expect(await dialog(page).getByRole('button', { name: 'Close' }).count()).toBe(1);
    await expect.poll(() => dialog(page).getByRole('timer').innerText()).toMatch(/^0:(2\d|30)$/);
    // The dialog has the focus, on its safe choice.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Continue Working');

    await dialog(page).getByRole('button', { name: 'Continue Working' }).click();
    await dialog(page).waitFor({ state: 'hidden' });
    // The idle timer starts again from the keep-alive.
    await idle(IDLE_SECONDS - WARNING_SECONDS - 6);
    await page.waitForTimeout(300);
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await footer(page).innerText()).toContain('Log out');
    await idle(6.5);
    await dialog(page).waitFor();
    await idle(WARNING_SECONDS);
    await page.getByRole('alert').filter({ hasText: TOAST }).waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
    expect(await page.context().cookies()).toEqual([]);

    // Signed out on the server too: a fresh page is a guest's.
    await page.reload();
    expect(await footer(page).innerText()).toBe('Sign in');
  });

  pgliteOnly('Log Out signs out at once, without the toast', async () => {
    await signIn();
    await idle(IDLE_SECONDS - WARNING_SECONDS + 1);
    await dialog(page).getByRole('button', { name: 'Log Out' }).click();
    await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await page.getByRole('alert').filter({ hasText: TOAST }).count()).toBe(0);
    expect(await page.context().cookies()).toEqual([]);
  });

  pgliteOnly(
    'Close and Escape close the dialog and give the focus back; focus stays inside while it is open',
    async () => {
      await signIn();
      const signInLinkArea = footer(page).getByRole('button', { name: 'Log out' });
      await signInLinkArea.focus();
      await idle(IDLE_SECONDS - WARNING_SECONDS + 1);
      await dialog(page).waitFor();
      // Tab and Shift+Tab cycle through the dialog's three buttons.
      const focused = () =>
        page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
      expect(await focused()).toBe('Continue Working');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Close');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Log Out');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      expect(await focused()).toBe('Continue Working');

      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'hidden' });
      expect(await focused()).toBe('Log out');
      // Closing does not keep the session: it still ends at expiry.
      await idle(WARNING_SECONDS);
      await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
      await page.getByRole('alert').filter({ hasText: TOAST }).waitFor();
    },
  );

  it('shows the toast and becomes a guest page when the session is no longer valid', async () => {
    await signIn();
    await idle(IDLE_SECONDS - WARNING_SECONDS + 1);
    await dialog(page).waitFor();
    // The session ends elsewhere (signed out from another device), then the user clicks Continue Working.
    const [cookie] = await page.context().cookies();
    const headers = { Cookie: `${cookie!.name}=${cookie!.value}`, Origin: server.baseUrl };
    const { csrfToken } = (await (
      await fetch(`${server.baseUrl}/services/data/v65.0/ui-api/session/csrf`, { headers })
    ).json()) as { csrfToken: string };
    const signOut = await fetch(`${server.baseUrl}/services/auth/session`, {
      method: 'DELETE',
      headers: { ...headers, 'X-CSRF-Token': csrfToken },
    });
    expect(signOut.status).toBe(204);

    await dialog(page).getByRole('button', { name: 'Continue Working' }).click();
    await page.getByRole('alert').filter({ hasText: TOAST }).waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
    // The refused calls are this test's point, not a problem of the page: the client's CSRF token, then
    // Continue Working itself.
    expectRefused(watched.problems, ['/services/data/v65.0/ui-api/session/csrf', '/services/auth/session/keep-alive']);
  });

  // The tests act in the tab in front and watch the one behind: input sent to a tab behind another is
  // delivered late (a second or more), and once in a while not at all before the test's time is up. Two tabs
  // on a busy machine take more than the 30 s of a test: it once timed out in CI's first pass.
  it('keeps two tabs in step: warned together, Continue Working in one closes both, Log Out in one signs out both', async () => {
    await signIn();
    const context: BrowserContext = page.context();
    const second = waitForHydration(await context.newPage());
    second.on('pageerror', (error) => watched.problems.push(`second tab: ${error.message}`));
    await second.clock.install();
    const started = validatorStarted(second);
    await second.goto(`${server.baseUrl}/`);
    await started;
    const tabs = [page, second];

    await idle(IDLE_SECONDS - WARNING_SECONDS + 1, tabs);
    await dialog(page).waitFor(SOON);
    await dialog(second).waitFor(SOON);
    await dialog(second).getByRole('button', { name: 'Continue Working' }).click();
    await dialog(second).waitFor({ state: 'hidden', ...SOON });
    await dialog(page).waitFor({ state: 'hidden', ...SOON });

    await idle(IDLE_SECONDS - WARNING_SECONDS + 1, tabs);
    await dialog(page).waitFor(SOON);
    await dialog(second).waitFor(SOON);
    await dialog(second).getByRole('button', { name: 'Log Out' }).click();
    await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await footer(second).innerText()).toBe('Sign in');

    // Signing in in one tab reaches the other.
    await second.goto(`${server.baseUrl}/login`);
    await second.getByLabel('E-mail address').fill(DEMO_USERS.standard.username);
    await second.getByLabel('Password').fill(server.passwords.standard);
    await second.getByRole('button', { name: 'Sign in' }).click();
    // Back on the Contact Us page before the test ends (a tab closed in the middle of loading may hold up
    // the browser's closing of the context).
    await second.waitForURL(`${server.baseUrl}/`, SOON);
    // The first tab's timers run on its installed clock: let it move, as real time would.
    await expect
      .poll(async () => {
        await page.clock.runFor(500);
        return footer(page).innerText();
      }, SOON)
      .toMatch(/^Signed in as /);
  }, 60_000);

  pgliteOnly('says so when the password is wrong', async () => {
    await page.goto(`${server.baseUrl}/login`);
    expect(await page.title()).toBe('Sign in');
    await page.getByLabel('E-mail address').fill(DEMO_USERS.standard.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'not right' }).innerText())
      .toBe('The e-mail address or the password is not right. Check them and try again.');
    expect(new URL(page.url()).pathname).toBe('/login');
    expectRefused(watched.problems, ['/services/auth/session']);
  });

  it('renders the page on the server for the session the request carries, and for a guest without one', async () => {
    const guest = await fetch(`${server.baseUrl}/`);
    expect(guest.headers.get('cache-control')).toBe('no-cache');
    const guestHtml = await guest.text();
    expect(renderedSession(guestHtml)).toMatchObject({ isGuest: true });
    expect(guestHtml).toContain('<a href="/login">Sign in</a>');

    const user = await signInOverHttp(server, 'admin');
    const signedIn = await fetch(`${server.baseUrl}/?country=Canada`, { headers: { Cookie: user.cookie } });
    // A page rendered for a session is that browser's alone.
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
    const html = await signedIn.text();
    expect(renderedSession(html)).toMatchObject({ isGuest: false, userId: DEMO_USERS.admin.userId });
    expect(html).toMatch(
      /Signed in as (?:<!-- -->)?Store Administrator<\/span><button type="button" class="link-button">Log out<\/button>/,
    );

    const signInPage = await (await fetch(`${server.baseUrl}/login?startURL=%2F%3Fcountry%3DCanada`)).text();
    expect(signInPage).toContain('<title>Sign in</title>');
    expect(signInPage).toContain('<meta name="robots" content="noindex">');
    expect(signInPage).toContain('href="/?country=Canada"');
    // The guest page links to the sign-in page coming back to the same address.
    expect(await (await fetch(`${server.baseUrl}/?country=Canada`)).text()).toContain(
      'href="/login?startURL=%2F%3Fcountry%3DCanada"',
    );
  });

  pgliteOnly(
    'has no axe violations: the sign-in page with an error, the signed-in page, the dialog, the toast',
    async () => {
      await page.goto(`${server.baseUrl}/login`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('Enter your e-mail address.').waitFor();
      expect(await axeViolations(page)).toEqual([]);

      await signIn();
      expect(await axeViolations(page)).toEqual([]);
      await idle(IDLE_SECONDS - WARNING_SECONDS + 1);
      await dialog(page).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await idle(WARNING_SECONDS);
      await page.getByRole('alert').filter({ hasText: TOAST }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Dismiss' }).click();
      expect(await page.getByText(TOAST).count()).toBe(0);
    },
  );

  pgliteOnly(
    'hydrates the signed-in page and the sign-in page without a mismatch in React’s development build',
    async () => {
      const build = await developmentBuild(resolve(ROOT, 'web'));
      try {
        await routeDevelopmentBuild(page, build);
        const messages: string[] = [];
        page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
        await page.goto(`${server.baseUrl}/login`);
        await page.waitForFunction(() =>
          Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer')),
        );

        const user = await signInOverHttp(server, 'admin');
        const [name, value] = user.cookie.split('=') as [string, string];
        await page.context().addCookies([{ name, value, url: server.baseUrl }]);
        const started = validatorStarted(page);
        await page.goto(`${server.baseUrl}/?country=Canada`);
        await started;
        expect(await footer(page).innerText()).toMatch(/^Signed in as Store Administrator\s+Log out$/);
        await page.goto(`${server.baseUrl}/login`);
        expect(await page.locator('main').innerText()).toContain('You are signed in as Store Administrator.');
        // Proof that React runs: the sign-in page's Log out.
        await page.getByRole('main').getByRole('button', { name: 'log out' }).click();
        await page.getByLabel('E-mail address').waitFor();
        expect(messages.filter((message) => /^(error|warning)/.test(message))).toEqual([]);
      } finally {
        rmSync(build.outDir, { recursive: true, force: true });
      }
    },
  );

  pgliteOnly('logs out from the footer, in every tab', async () => {
    await signIn();
    const second = waitForHydration(await page.context().newPage());
    second.on('pageerror', (error) => watched.problems.push(`second tab: ${error.message}`));
    await second.goto(`${server.baseUrl}/`);
    expect(await footer(second).innerText()).toMatch(/^Signed in as /);
    await footer(second).getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => footer(second).innerText(), SOON).toBe('Sign in');
    await expect.poll(() => footer(page).innerText(), SOON).toBe('Sign in');
    expect(await page.getByText(TOAST).count()).toBe(0);
    expect(await second.getByText(TOAST).count()).toBe(0);
    expect(await page.context().cookies()).toEqual([]);
  });
});
