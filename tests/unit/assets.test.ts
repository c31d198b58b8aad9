/**
 * Which entry of a build the server's documents name: the storefront's (index.html) and the back office's
 * (lightning.html), each found by the HTML file it was built from, in its own build's manifest.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BACK_OFFICE_ENTRY,
  BACK_OFFICE_MANIFEST,
  backOfficeAssetsReader,
  clientAssetsFrom,
  clientAssetsReader,
  STOREFRONT_MANIFEST,
} from '../../web/ssr/assets.ts';

/** A manifest with both pages' entries, the back office's listed first. */
const BOTH = {
  'lightning.html': { file: 'assets/lightning-1.js', src: 'lightning.html', isEntry: true, css: ['assets/l.css'] },
  '_shared.js': { file: 'assets/shared-2.js' },
  'index.html': { file: 'assets/index-3.js', src: 'index.html', isEntry: true, imports: ['_shared.js'] },
};
const STYLES: Record<string, string> = { 'assets/l.css': '.l{}' };

describe('the entry a document names', () => {
  it('is the storefront’s by its source, index.html, wherever the manifest lists it', () => {
    expect(clientAssetsFrom(BOTH, (file) => STYLES[file])).toEqual({
      script: '/assets/index-3.js',
      css: '',
      preloads: ['/assets/shared-2.js'],
    });
  });

  it('is the back office’s when asked for lightning.html', () => {
    expect(clientAssetsFrom(BOTH, (file) => STYLES[file], '/', BACK_OFFICE_ENTRY)).toEqual({
      script: '/assets/lightning-1.js',
      css: '.l{}',
      preloads: [],
    });
  });

  it('is never another entry: a manifest without the storefront’s is refused', () => {
    const backOfficeOnly = { 'lightning.html': BOTH['lightning.html'] };
    expect(() => clientAssetsFrom(backOfficeOnly, () => '')).toThrow('no entry chunk built from index.html');
  });

  it('each reader reads its own build’s manifest', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-entries-'));
    try {
      mkdirSync(join(root, '.vite'));
      writeFileSync(join(root, '.vite', STOREFRONT_MANIFEST), JSON.stringify({ 'index.html': BOTH['index.html'] }));
      const backOffice = { 'lightning.html': { ...BOTH['lightning.html'], css: [] } };
      expect(backOfficeAssetsReader(root)()).toBeNull();
      writeFileSync(join(root, '.vite', BACK_OFFICE_MANIFEST), JSON.stringify(backOffice));
      expect(clientAssetsReader(root)()?.script).toBe('/assets/index-3.js');
      expect(backOfficeAssetsReader(root)()?.script).toBe('/assets/lightning-1.js');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
