/**
 * Each page's initial-JS budget: what the browser loads for the page to run, gzipped. The storefront's (the
 * entry and the app it fetches) at most 100 kB; the back office's (under /lightning/) at most 150 kB. The build
 * measures each entry on its own and writes its figure to dist/web (web/build-plugins.ts); a budget fails here,
 * in npm test and CI, and never stops npm run build or npm start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ENTRY_LABELS,
  INITIAL_JS_BUDGETS_KB,
  INITIAL_JS_REPORTS,
  type EntryName,
  type InitialJsReport,
} from '../../web/build-plugins.ts';

describe('initial JS budget', () => {
  for (const entry of Object.keys(ENTRY_LABELS) as EntryName[]) {
    const budgetKb = INITIAL_JS_BUDGETS_KB[entry];
    it(`${ENTRY_LABELS[entry]} loads at most ${budgetKb} kB of JavaScript, gzipped`, () => {
      const path = resolve(import.meta.dirname, '../../dist/web', INITIAL_JS_REPORTS[entry]);
      expect(existsSync(path), `${path} is missing: run npm run build (npm test does it first)`).toBe(true);
      const report = JSON.parse(readFileSync(path, 'utf8')) as InitialJsReport;
      expect(report.budgetBytes).toBe(budgetKb * 1000);
      expect(report.files.length).toBeGreaterThan(0);
      expect(
        report.gzippedBytes,
        `initial JS ${report.gzippedBytes} bytes gzipped (${report.files.join(' + ')}) is over the budget`,
      ).toBeLessThanOrEqual(budgetKb * 1000);
    });
  }

  it('the two pages share no file: the storefront loads nothing of the back office', () => {
    const files = (entry: EntryName) =>
      (
        JSON.parse(
          readFileSync(resolve(import.meta.dirname, '../../dist/web', INITIAL_JS_REPORTS[entry]), 'utf8'),
        ) as InitialJsReport
      ).files;
    const backOffice = new Set(files('backOffice'));
    expect(files('storefront').filter((file) => backOffice.has(file))).toEqual([]);
  });
});
