/**
 * The combobox of docs/product-spec.md §4 and the WAI-ARIA combobox pattern: keyboard-only use on the
 * real page, search as one types, the label reopening the list after 50 ms, the list's minimum heights;
 * and, on a harness page built with React's development code, the states the page does not use: required
 * (error after blur), disabled and read-only (never invalid), the change event, select-only type-ahead.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.ts';
import {
  combobox,
  developmentBuild,
  optionLabels,
  ROOT,
  searchOf,
  type WatchedPage,
  usePageSession,
} from './helpers.ts';

/** The text of the option aria-activedescendant points at ('' when none). */
async function activeOption(page: Page, label: string): Promise<string> {
  const id = await combobox(page, label).getAttribute('aria-activedescendant');
  return id ? page.locator(`[id="${id}"]`).innerText() : '';
}

/** Whether keyboard focus is on the combobox (it never moves into the list). */
async function focusIsOn(page: Page, label: string): Promise<boolean> {
  return combobox(page, label).evaluate((element) => element === document.activeElement);
}

async function listMinHeight(page: Page, label: string): Promise<string> {
  const id = await combobox(page, label).getAttribute('aria-controls');
  return page.locator(`[id="${id}"]`).evaluate((list) => getComputedStyle(list).minHeight);
}

describe('Combobox in Chromium', () => {
  let server: TestServer;
  let watched: WatchedPage;
  let page: Page;
  usePageSession({}, (session) => ({ server, watched, page } = session));

  describe('on the Contact Us page', () => {
    beforeEach(async () => {
      await page.goto(`${server.baseUrl}/`);
    });

    async function tabTo(label: string) {
      for (let presses = 0; presses < 12 && !(await focusIsOn(page, label)); presses++)
        await page.keyboard.press('Tab');
      expect(await focusIsOn(page, label)).toBe(true);
    }

    it('is used with the keyboard alone: arrows, Home, End, Enter, Escape, focus kept in the input', async () => {
      const brand = combobox(page, 'Brand');
      await tabTo('Brand');
      expect(await brand.getAttribute('aria-expanded')).toBe('false');
      expect(await brand.getAttribute('aria-autocomplete')).toBe('list');
      const listbox = page.locator(`[id="${await brand.getAttribute('aria-controls')}"]`);
      expect(await listbox.getAttribute('role')).toBe('listbox');
      expect(await listbox.isVisible()).toBe(false);

      await page.keyboard.press('ArrowDown');
      expect(await brand.getAttribute('aria-expanded')).toBe('true');
      expect(await listbox.isVisible()).toBe(true);
      expect(await activeOption(page, 'Brand')).toBe('ARCLINE');
      await page.keyboard.press('ArrowDown');
      expect(await activeOption(page, 'Brand')).toBe('BOLTWRIGHT');
      await page.keyboard.press('End');
      expect(await activeOption(page, 'Brand')).toBe('IRONSPAN');
      await page.keyboard.press('ArrowDown');
      expect(await activeOption(page, 'Brand')).toBe('IRONSPAN');
      await page.keyboard.press('Home');
      expect(await activeOption(page, 'Brand')).toBe('ARCLINE');
      await page.keyboard.press('ArrowUp');
      expect(await activeOption(page, 'Brand')).toBe('ARCLINE');
      expect(await focusIsOn(page, 'Brand')).toBe(true);

      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await brand.getAttribute('aria-expanded')).toBe('false');
      expect(await brand.inputValue()).toBe('BOLTWRIGHT');
      await expect.poll(() => searchOf(page)).toBe('?brand=Boltwright');
      expect(await focusIsOn(page, 'Brand')).toBe(true);

      // Reopened, the list starts on the selected option, which carries aria-selected and the check mark.
      await page.keyboard.press('ArrowDown');
      expect(await activeOption(page, 'Brand')).toBe('BOLTWRIGHT');
      const selected = listbox.locator('[role="option"][aria-selected="true"]');
      expect(await selected.allInnerTexts()).toEqual(['BOLTWRIGHT']);
      expect(await selected.locator('.combobox__check svg').count()).toBe(1);
      expect(await listbox.locator('[role="option"][aria-selected="false"]').count()).toBe(7);
      await page.keyboard.press('End');
      await page.keyboard.press('Escape');
      expect(await brand.getAttribute('aria-expanded')).toBe('false');
      expect(await brand.inputValue()).toBe('BOLTWRIGHT');
      expect(searchOf(page)).toBe('?brand=Boltwright');
    });

    it('filters the options as one types, best matches first, and Enter takes the active one', async () => {
      await tabTo('Country');
      await page.keyboard.type('can');
      const country = combobox(page, 'Country');
      expect(await country.getAttribute('aria-expanded')).toBe('true');
      const labels = await optionLabels(page, 'Country');
      expect(labels[0]).toBe('Canada');
      expect(labels.every((label) => label.toLowerCase().includes('can'))).toBe(true);
      expect(await activeOption(page, 'Country')).toBe('Canada');
      await page.keyboard.press('Enter');
      await expect.poll(() => searchOf(page)).toBe('?country=Canada');
      expect(await country.inputValue()).toBe('Canada');

      await page.keyboard.type('xyz');
      expect(await country.getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator('.combobox__no-match').innerText()).toBe('No matches');
      await page.keyboard.press('Escape');
      expect(await country.inputValue()).toBe('Canada');
    });

    it('keeps the clear buttons out of the Tab order: Tab goes from field to field, Escape only closes', async () => {
      const country = combobox(page, 'Country');
      await tabTo('Brand');
      await page.keyboard.type('bolt');
      await page.keyboard.press('Enter');
      await expect.poll(() => searchOf(page)).toBe('?brand=Boltwright');
      await page.keyboard.press('Tab');
      expect(await focusIsOn(page, 'Country')).toBe(true);
      await page.keyboard.type('canad');
      await page.keyboard.press('Enter');
      await expect.poll(() => searchOf(page)).toBe('?brand=Boltwright&country=Canada');
      expect(await country.inputValue()).toBe('Canada');
      // Both have a clear button for the pointer, which is no Tab stop.
      for (const label of ['Brand', 'Country']) {
        expect(await page.getByRole('button', { name: `Clear ${label}` }).getAttribute('tabindex')).toBe('-1');
      }

      // Tab goes on to State/Province, Shift+Tab back to Country: never to a clear button.
      await expect.poll(() => combobox(page, 'State/Province').isEnabled()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focusIsOn(page, 'State/Province')).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect(await focusIsOn(page, 'Country')).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect(await focusIsOn(page, 'Brand')).toBe(true);
      await page.keyboard.press('Tab');

      // Escape closes an open list and otherwise leaves the chosen country alone: one stray key loses nothing.
      await page.keyboard.press('ArrowDown');
      expect(await country.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      expect(await country.getAttribute('aria-expanded')).toBe('false');
      expect(await country.inputValue()).toBe('Canada');
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      expect(await country.inputValue()).toBe('Canada');
      expect(searchOf(page)).toBe('?brand=Boltwright&country=Canada');

      // The clear button clears it, says so, and leaves the focus in the field.
      await page.getByRole('button', { name: 'Clear Country' }).click();
      await expect.poll(() => searchOf(page)).toBe('?brand=Boltwright');
      expect(await country.inputValue()).toBe('');
      expect(await focusIsOn(page, 'Country')).toBe(true);
      expect(await page.getByRole('status').filter({ hasText: 'Country cleared' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Clear Country' }).count()).toBe(0);
    });

    it('stays quick while searching the ~250 countries', async () => {
      await combobox(page, 'Country').click();
      expect((await optionLabels(page, 'Country')).length).toBeGreaterThan(240);
      // Six keystrokes, each through React's input handling and a full render of the filtered list.
      const elapsed = await combobox(page, 'Country').evaluate(async (input) => {
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        const started = performance.now();
        for (const text of ['u', 'un', 'uni', 'unit', 'unite', 'united']) {
          setValue.call(input, text);
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await new Promise(requestAnimationFrame);
        }
        return performance.now() - started;
      });
      expect(await optionLabels(page, 'Country')).toEqual([
        'United Arab Emirates',
        'United Kingdom',
        'United States',
        'United States Minor Outlying Islands',
      ]);
      expect(elapsed).toBeLessThan(1000);
    });

    it('reopens the list 50 ms after a click on the label', async () => {
      const timeline = await page.evaluate(async () => {
        const input = document.querySelector<HTMLInputElement>('input[placeholder="--Select Country--"]')!;
        const label = document.querySelector<HTMLLabelElement>(`label[for="${input.id}"]`)!;
        // When the list opens, measured from the click (a timer never fires early, a busy machine may delay it).
        const opened = new Promise<number>((resolve) => {
          new MutationObserver(() => {
            if (input.getAttribute('aria-expanded') === 'true') resolve(performance.now());
          }).observe(input, { attributes: true, attributeFilter: ['aria-expanded'] });
        });
        const clickedAt = performance.now();
        label.click();
        const atClick = input.getAttribute('aria-expanded');
        const delay = (await opened) - clickedAt;
        return {
          atClick,
          openedAfter50ms: delay >= 50,
          openedWithin2s: delay < 2000,
          focused: document.activeElement === input,
        };
      });
      expect(timeline).toEqual({ atClick: 'false', openedAfter50ms: true, openedWithin2s: true, focused: true });
    });

    it('keeps the list at least 2.25rem high with fewer than 3 options, else 6.75rem', async () => {
      await combobox(page, 'Brand').click();
      expect(await listMinHeight(page, 'Brand')).toBe('108px');
      await combobox(page, 'Brand').press('Escape');
      await combobox(page, 'Country').fill('canad');
      expect(await optionLabels(page, 'Country')).toEqual(['Canada']);
      expect(await listMinHeight(page, 'Country')).toBe('36px');
    });
  });

  describe('on its own (harness page, React development build)', () => {
    let build: Awaited<ReturnType<typeof developmentBuild>>;

    beforeAll(async () => {
      build = await developmentBuild(resolve(ROOT, 'tests/e2e/harness'), '/__harness/');
    });

    afterAll(() => {
      if (build) rmSync(build.outDir, { recursive: true, force: true });
    });

    beforeEach(async () => {
      await page.route(`${server.baseUrl}/__harness/**`, (route) => {
        const path = new URL(route.request().url()).pathname.replace('/__harness/', '') || 'index.html';
        const { body, contentType } = build.read(path);
        return route.fulfill({ body, contentType });
      });
      page.on('console', (message) => {
        if (message.type() === 'warning') watched.problems.push(`warning: ${message.text()}`);
      });
      await page.goto(`${server.baseUrl}/__harness/`);
      await combobox(page, 'Required country').waitFor();
    });

    const changes = () => page.getByTestId('changes').innerText();

    it('shows "Complete this field." once focus leaves a required, empty combobox', async () => {
      const required = combobox(page, 'Required country');
      expect(await required.getAttribute('aria-required')).toBe('true');
      await required.focus();
      expect(await required.getAttribute('aria-invalid')).toBeNull();
      await page.keyboard.press('Tab');
      expect(await required.getAttribute('aria-invalid')).toBe('true');
      const errorId = await required.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${errorId}"]`).innerText()).toBe('Complete this field.');

      await required.focus();
      await page.keyboard.type('nor');
      await page.keyboard.press('Enter');
      expect(await required.inputValue()).toBe('Norway');
      expect(await required.getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByText('Complete this field.').count()).toBe(0);

      // Erasing the text and leaving clears the value, and the error is back.
      await required.fill('');
      await page.keyboard.press('Tab');
      expect(await required.getAttribute('aria-invalid')).toBe('true');
      expect(await changes()).toBe('required=Norway required=null');
      expect(await new AxeBuilder({ page }).analyze().then((result) => result.violations.map((v) => v.id))).toEqual([]);
    });

    it('is never invalid when disabled or read-only, and a read-only one does not open', async () => {
      const disabled = combobox(page, 'Disabled country');
      const readOnly = combobox(page, 'Read-only country');
      expect(await disabled.isDisabled()).toBe(true);
      await readOnly.focus();
      await page.keyboard.press('ArrowDown');
      expect(await readOnly.getAttribute('aria-expanded')).toBe('false');
      await readOnly.click();
      expect(await readOnly.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('Tab');
      for (const box of [disabled, readOnly]) expect(await box.getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByText('Complete this field.').count()).toBe(0);
    });

    it('fires the change event only when the value changes', async () => {
      const required = combobox(page, 'Required country');
      await required.click();
      await page.getByRole('option', { name: 'Canada' }).click();
      await required.click();
      await page.getByRole('option', { name: 'Canada' }).click();
      await required.press('ArrowDown');
      await required.press('ArrowDown');
      await required.press('Enter');
      expect(await required.inputValue()).toBe('Central African Republic');
      expect(await changes()).toBe('required=Canada required=Central African Republic');
    });

    it('select-only: type-ahead finds options by their first letters, the typed word reset after 700 ms', async () => {
      const selectOnly = combobox(page, 'Select-only country');
      await selectOnly.focus();
      await page.keyboard.press('n');
      expect(await selectOnly.getAttribute('aria-expanded')).toBe('true');
      expect(await activeOption(page, 'Select-only country')).toBe('Niger');
      // Letters typed in quick succession make one word.
      await page.waitForTimeout(800);
      await page.keyboard.type('no', { delay: 50 });
      expect(await activeOption(page, 'Select-only country')).toBe('Norway');
      // A pause longer than 700 ms starts a new word: "c" finds Canada, not "noc" (which finds nothing).
      await page.waitForTimeout(800);
      await page.keyboard.press('c');
      expect(await activeOption(page, 'Select-only country')).toBe('Canada');
      await page.waitForTimeout(800);
      await page.keyboard.type('ce', { delay: 50 });
      expect(await activeOption(page, 'Select-only country')).toBe('Central African Republic');
      await page.keyboard.press('Enter');
      expect(await selectOnly.innerText()).toBe('Central African Republic');
      // Repeating one letter steps through the options that start with it.
      await page.waitForTimeout(800);
      await page.keyboard.type('nnn', { delay: 50 });
      expect(await activeOption(page, 'Select-only country')).toBe('Norway');
      await page.keyboard.press('Escape');
      expect(await changes()).toBe('select-only=Central African Republic');
    });

    it('select-only: Delete clears the value when the list is closed, Escape leaves it', async () => {
      const selectOnly = combobox(page, 'Select-only country');
      await selectOnly.focus();
      await page.keyboard.press('g');
      await page.keyboard.press('Enter');
      expect(await selectOnly.innerText()).toBe('Germany');
      await page.keyboard.press('Delete');
      expect(await selectOnly.innerText()).toBe('--Select Country--');
      await page.waitForTimeout(800);
      await page.keyboard.press('c');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      expect(await selectOnly.innerText()).toBe('Canada');
      await page.keyboard.press('Backspace');
      expect(await selectOnly.innerText()).toBe('--Select Country--');
      expect(await changes()).toBe('select-only=Germany select-only=null select-only=Canada select-only=null');
    });

    it('keeps the list at least 2.25rem high with fewer than 3 options, else 6.75rem', async () => {
      await combobox(page, 'Two options').click();
      expect(await listMinHeight(page, 'Two options')).toBe('36px');
      expect(await optionLabels(page, 'Two options')).toEqual(['Alpha\nThe first', 'Beta']);
      await combobox(page, 'Required country').click();
      expect(await listMinHeight(page, 'Required country')).toBe('108px');
    });
  });
});
