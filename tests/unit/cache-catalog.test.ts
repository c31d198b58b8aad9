/**
 * The table of caches in code (server/cache/catalog.ts) and in docs/architecture.md are one table: the same
 * caches, each naming a file that exists, the switch that turns it off, and the tests that exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_CATALOG } from '../../server/cache/catalog.ts';

const root = resolve(import.meta.dirname, '../..');
const architecture = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');

/** The rows of the table under "## Caches": name, file and test of each. */
function documentedCaches(): { name: string; file: string; test: string }[] {
  const section = architecture.slice(
    architecture.indexOf('## Caches'),
    architecture.indexOf('### Change notifications'),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| cache ') && !line.startsWith('| ---'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map((cells) => ({
      name: cells[1],
      file: cells[2].replaceAll('`', ''),
      test: cells[cells.length - 2].replaceAll('`', ''),
    }));
}

describe('the table of caches', () => {
  it('is the same in code and in docs/architecture.md', () => {
    const code = CACHE_CATALOG.map(({ name, file, test }) => ({ name, file, test }));
    expect(documentedCaches()).toEqual(code);
  });

  it.each(CACHE_CATALOG.map((row) => [row.name, row] as const))(
    '%s: its file and its test exist, and each channel it names is a channel',
    (_name, row) => {
      expect(existsSync(resolve(root, row.file)), row.file).toBe(true);
      // One test file, or several written as a list ("a.test.ts, b.test.ts").
      for (const test of row.test.split(', ')) expect(existsSync(resolve(root, test)), test).toBe(true);
      for (const channel of row.channels) expect(architecture).toContain(`| \`${channel}\` |`);
    },
  );
});
