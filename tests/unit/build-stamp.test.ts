/**
 * What npm start builds (scripts/build-stamp.js): the digest of the build's inputs, and the stamp that says the
 * build in dist/ was made from them, on a folder laid out like the repository.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIsCurrent, clearStamp, inputsDigest, writeStamp } from '../../scripts/build-stamp.js';

let root = '';
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const OUTPUTS = [
  'dist/server/main.js',
  'dist/web/.vite/manifest.json',
  'dist/web/.vite/back-office-manifest.json',
  'dist/docs/index.html',
];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamp-'));
  put('package.json', '{}');
  put('server/app.ts', 'export const app = 1;');
  put('web/src/main.tsx', 'export {};');
  put('tests/unit/a.test.ts', 'test');
  for (const output of OUTPUTS) put(output, 'built');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the digest of the inputs', () => {
  it('changes with a source file, and is back when its content is', () => {
    const before = inputsDigest(root);
    expect(inputsDigest(root)).toBe(before);
    put('server/app.ts', 'export const app = 2;');
    expect(inputsDigest(root)).not.toBe(before);
    put('server/app.ts', 'export const app = 1;');
    expect(inputsDigest(root)).toBe(before);
  });

  it('changes when a file is added or renamed', () => {
    const before = inputsDigest(root);
    put('common/new.ts', '');
    const added = inputsDigest(root);
    expect(added).not.toBe(before);
    rmSync(join(root, 'common/new.ts'));
    put('common/other.ts', '');
    expect(inputsDigest(root)).not.toBe(added);
  });

  it('leaves out the tests, the build, node_modules and the data directories', () => {
    const before = inputsDigest(root);
    put('tests/unit/b.test.ts', 'another test');
    put('dist/web/assets/x.js', 'built');
    put('node_modules/pkg/index.js', '');
    put('.data/pg/file', 'data');
    put('server/.cache', 'x');
    expect(inputsDigest(root)).toBe(before);
  });
});

describe('the stamp', () => {
  it('makes the build current until a source changes', () => {
    expect(buildIsCurrent(root)).toBe(false);
    writeStamp(root);
    expect(buildIsCurrent(root)).toBe(true);
    put('web/src/main.tsx', 'export const changed = true;');
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('says nothing once cleared, or when an output of the build is missing', () => {
    writeStamp(root);
    clearStamp(root);
    expect(buildIsCurrent(root)).toBe(false);
    writeStamp(root);
    rmSync(join(root, 'dist/server/main.js'));
    expect(buildIsCurrent(root)).toBe(false);
  });
});
