/** The docs build's pure parts: Redocly's output without its notices, the contract as the page shows it, its links. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contractForDocs,
  docsAddresses,
  invalidationText,
  linksUnderBase,
  withChangelog,
  type Contract,
} from '../../scripts/lib/docs-page.ts';
import { withoutNotices } from '../../scripts/lib/redocly.ts';

const box = (...lines: string[]) =>
  ['', '    ╔════╗', '    ║    ║', ...lines.map((line) => `    ║  ${line}  ║`), '    ╚════╝', '', ''].join('\n');

describe("Redocly's output", () => {
  it('loses the Node.js 20 and Redoc 3 notices, and keeps everything else', () => {
    const output =
      box('Deprecation warning: Node.js 20 support is ending', 'You are using Node.js v20.20.2.') +
      box('build-docs now renders docs with Redoc 3.') +
      'Prerendering docs\n\n' +
      box('Something else worth reading') +
      'bundled successfully\n';
    const kept = withoutNotices(output);
    expect(kept).not.toMatch(/Node\.js 20|Redoc 3/);
    expect(kept).toContain('Prerendering docs');
    expect(kept).toContain('Something else worth reading');
    expect(kept).toContain('bundled successfully');
  });

  it('is kept whole when it has no notice', () => {
    expect(withoutNotices('validating...\nwarning: x\n')).toBe('validating...\nwarning: x\n');
  });
});

describe('The contract as the docs show it', () => {
  const contract: Contract = {
    security: [{}, { sessionCookie: [] }],
    paths: {
      '/guest': { get: {}, parameters: [] },
      '/explicit': { get: { security: [{ sessionCookie: [] }, {}] } },
      '/signed-in': { post: { security: [{ sessionCookie: [] }] } },
    },
    components: { securitySchemes: { sessionCookie: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
  };

  it('names the empty requirement `guest`, a scheme that says what it means', () => {
    const docs = contractForDocs(contract);
    expect(docs.security).toEqual([{ guest: [] }, { sessionCookie: [] }]);
    expect(docs.paths['/explicit'].get).toEqual({ security: [{ sessionCookie: [] }, { guest: [] }] });
    expect(docs.paths['/signed-in'].post).toEqual({ security: [{ sessionCookie: [] }] });
    expect(docs.paths['/guest'].get).toEqual({});
    expect(Object.keys(docs.components.securitySchemes!)).toEqual(['guest', 'sessionCookie']);
    expect(docs.components.securitySchemes!.guest).toMatchObject({
      description: expect.stringMatching(/No credentials/),
    });
  });

  it('leaves the contract itself as it is', () => {
    const before = JSON.stringify(contract);
    contractForDocs(contract);
    expect(JSON.stringify(contract)).toBe(before);
  });
});

describe('The changelog on the page', () => {
  it('is the last section of the description, its headings one level down', () => {
    const contract: Contract = { info: { description: 'About.\n' }, paths: {}, components: {} };
    const changelog = '# Changelog\n\nHow it is written.\n\n## 1.1.0 (2026-11-28)\n\n### Breaking\n\n- a\n';
    expect(withChangelog(contract, changelog).info?.description).toBe(
      'About.\n\n## Changelog\n\nHow it is written.\n\n### 1.1.0 (2026-11-28)\n\n#### Breaking\n\n- a\n',
    );
    expect(contract.info?.description).toBe('About.\n');
  });
});

describe("The prerendered page's links", () => {
  it('are put under the base path, and only the page’s own', () => {
    const html =
      '<head><link rel="modulepreload" href="/docs/redoc.standalone.js"></head><body><div id="redoc">' +
      '<a href="/">API</a><a href="/storefront">S</a><a href="/section/errors">E</a><a href="#x">x</a>' +
      '<a href="https://redocly.com/redoc/">by</a><a href="//cdn.example/x">cdn</a></div>\n<script type="module">import "/docs/redoc.standalone.js";</script>';
    const result = linksUnderBase(html, '/docs');
    expect(result).toContain(
      '<a href="/docs">API</a><a href="/docs/storefront">S</a><a href="/docs/section/errors">E</a><a href="#x">x</a>',
    );
    expect(result).toContain('href="https://redocly.com/redoc/"');
    expect(result).toContain('href="//cdn.example/x"');
    expect(result).toContain('<link rel="modulepreload" href="/docs/redoc.standalone.js">');
  });
});

describe('the invalidations a write declares', () => {
  it('are said in words on the write, and not on a read', () => {
    const contract = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../generated/openapi.json'), 'utf8'));
    const docs = contractForDocs(contract) as unknown as {
      paths: Record<string, Record<string, { description?: string; 'x-codeSamples'?: unknown[] }>>;
    };
    const update = docs.paths['/services/data/v65.0/ui-api/records/{recordId}'];
    expect(update.patch.description).toContain('`getRecord` (recordId = path.recordId)');
    expect(update.patch.description).toContain('`getRelatedListCount` (all)');
    expect(update.get.description).not.toContain('Makes stale');
    expect(invalidationText('all')).toContain('every cached answer');
    expect(update.get['x-codeSamples']).toHaveLength(2);
  });
});

describe("the docs page's addresses", () => {
  it('are the page, its sections and groups, and each operation under its group', () => {
    const html =
      '<div id="redoc"><a href="/docs">API</a><a href="/docs/storefront">S</a><a href="/docs/section/errors">E</a>' +
      '<a href="/docs/section/errors#x">again</a><a href="https://redocly.com/">by</a></div>' +
      '<script type="module" src="/docs/redoc.standalone.js"></script>';
    const contract = {
      paths: {
        '/a': { get: { operationId: 'getContacts', tags: ['Storefront'] }, parameters: [] },
        '/b': { post: { operationId: 'getRelatedListRecords', tags: ['Related lists'] } },
      },
      components: {},
    } as unknown as Contract;
    expect(docsAddresses(html, contract, '/docs')).toEqual([
      '/docs',
      '/docs/related-lists/getrelatedlistrecords',
      '/docs/section/errors',
      '/docs/storefront',
      '/docs/storefront/getcontacts',
    ]);
  });
});
