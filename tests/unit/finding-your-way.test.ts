/**
 * docs/architecture.md's "Finding an operation" holds for every operation of the contract: its contract file,
 * its handler and its tests are found by its operationId, as the table says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationTable } from '../../generated/operations.ts';

const root = resolve(import.meta.dirname, '../..');

/** Every file under folder (relative to the root) ending in one of the extensions, with its text. */
function filesUnder(folder: string, extensions: string[]): { path: string; text: string }[] {
  return (readdirSync(resolve(root, folder), { recursive: true }) as string[])
    .filter((name) => extensions.some((extension) => name.endsWith(extension)))
    .map((name) => ({ path: `${folder}/${name}`, text: readFileSync(resolve(root, folder, name), 'utf8') }));
}

const contractFiles = filesUnder('openapi/paths', ['.yaml']);
const routeFiles = filesUnder('server/routes', ['.ts']);
const testFiles = filesUnder('tests', ['.ts']);

describe('finding an operation by its operationId', () => {
  it.each(Object.keys(operationTable))('%s: one contract file, a handler and a test name it', (operationId) => {
    expect(
      contractFiles
        .filter(({ text }) => new RegExp(`^  operationId: ${operationId}$`, 'm').test(text))
        .map(({ path }) => path),
    ).toHaveLength(1);
    expect(routeFiles.some(({ text }) => new RegExp(`routes\\.${operationId}\\b`).test(text))).toBe(true);
    expect(testFiles.some(({ text }) => new RegExp(`['"\`]${operationId}['"\`]`).test(text))).toBe(true);
  });
});
