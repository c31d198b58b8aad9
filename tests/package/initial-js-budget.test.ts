/**
 * The page's initial-JS budget: what the browser loads for the page to run (the entry and the app it fetches),
 * gzipped, at most 100 kB. The build measures it and writes dist/web/initial-js.json (web/build-plugins.ts);
 * the budget fails here, in npm test and CI, and never stops npm run build or npm start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_KB, INITIAL_JS_REPORT, type InitialJsReport } from '../../web/build-plugins.ts';

const REPORT = resolve(import.meta.dirname, '../../dist/web', INITIAL_JS_REPORT);
const BUDGET_BYTES = INITIAL_JS_BUDGET_KB * 1000;

describe('initial JS budget', () => {
  it(`the built page loads at most ${INITIAL_JS_BUDGET_KB} kB of JavaScript, gzipped`, () => {
    expect(existsSync(REPORT), `${REPORT} is missing: run npm run build (npm test does it first)`).toBe(true);
    const report = JSON.parse(readFileSync(REPORT, 'utf8')) as InitialJsReport;
    expect(report.budgetBytes).toBe(BUDGET_BYTES);
    expect(report.files.length).toBeGreaterThan(0);
    expect(
      report.gzippedBytes,
      `initial JS ${report.gzippedBytes} bytes gzipped (${report.files.join(' + ')}) is over the budget`,
    ).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
