import type { DehydratedState } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientAssetsFrom, clientAssetsReader } from '../../web/ssr/assets.ts';
import { DEFAULT_HEAD, documentInlineStyles, renderDocument } from '../../web/ssr/document.ts';
import { parseStartTags, sanitizeHeadTags } from '../../web/ssr/head-tags.ts';
import { headFromSeo } from '../../web/ssr/seo-head.ts';
import { escapeHtml, serializeForScript, serializeQueryState } from '../../web/ssr/serialize.ts';

describe('serializeForScript', () => {
  it('escapes what could end the script element, and JSON.parse reads it back unchanged', () => {
    const value = {
      name: '</script><script>alert(1)</script>',
      comment: '<!-- x -->',
      amp: 'A & B',
      lines: 'a\u2028b\u2029c',
    };
    const text = serializeForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(JSON.parse(text)).toEqual(value);
  });
});

/** A dehydrated query as TanStack Query's dehydrate makes it: data, when it has any, inside its state. */
function dehydratedQuery(
  queryKey: unknown[],
  data: unknown,
  status: 'success' | 'error' = 'success',
): DehydratedState['queries'][number] {
  return {
    dehydratedAt: 1,
    queryKey,
    queryHash: JSON.stringify(queryKey),
    state: {
      ...(data === undefined ? {} : { data }),
      dataUpdateCount: data === undefined ? 0 : 1,
      dataUpdatedAt: 2,
      error: status === 'error' ? new Error('x') : null,
      errorUpdateCount: status === 'error' ? 1 : 0,
      errorUpdatedAt: 0,
      fetchFailureCount: 0,
      fetchFailureReason: null,
      fetchMeta: null,
      isInvalidated: false,
      status,
      fetchStatus: 'idle',
    } as DehydratedState['queries'][number]['state'],
  };
}

describe('serializeQueryState', () => {
  const hostile = { name: '</script><script>alert(1)</script>', lines: 'a\u2028b', nested: [{ amp: 'A & B' }] };
  const state: DehydratedState = {
    mutations: [],
    queries: [
      dehydratedQuery(['getObjectInfo', { objectApiName: '<x>' }], hostile),
      dehydratedQuery(['getDefaultContacts', {}], 'text </script>'),
      dehydratedQuery(['getSession', {}], undefined, 'error'),
      dehydratedQuery(['getContacts', {}], null),
    ],
  };

  it('is the JSON serializeForScript makes of the state: the same value, escaped the same way', () => {
    const text = serializeQueryState(state);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(JSON.parse(serializeForScript(state)));
  });

  it('makes the text of a data object once, and that of another object anew', () => {
    expect(serializeQueryState(state)).toBe(serializeQueryState(state));
    const changed = { ...state, queries: [dehydratedQuery(['getObjectInfo', {}], { ...hostile, name: 'other' })] };
    expect(JSON.parse(serializeQueryState(changed)).queries[0].state.data.name).toBe('other');
  });
});

describe('escapeHtml', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });
});

describe('clientAssetsFrom', () => {
  it('finds the entry, the text of its stylesheets and the chunks to preload', () => {
    const manifest = {
      'index.html': {
        file: 'assets/index-abc.js',
        isEntry: true,
        imports: ['_vendor.js'],
        css: ['assets/index-abc.css'],
      },
      '_vendor.js': { file: 'assets/vendor-def.js', imports: ['_shared.js'], css: ['assets/vendor-def.css'] },
      '_shared.js': { file: 'assets/shared-ghi.js', imports: ['_vendor.js'] },
      'lazy.tsx': { file: 'assets/lazy-jkl.js' },
    };
    const css: Record<string, string> = { 'assets/index-abc.css': '.a{}', 'assets/vendor-def.css': '.b{}' };
    expect(clientAssetsFrom(manifest, (file) => css[file])).toEqual({
      script: '/assets/index-abc.js',
      css: '.a{}\n.b{}',
      preloads: ['/assets/vendor-def.js', '/assets/shared-ghi.js'],
    });
  });

  it('refuses a manifest without an entry', () => {
    expect(() => clientAssetsFrom({ 'a.js': { file: 'assets/a.js' } }, () => '')).toThrow('no entry');
  });
});

describe('clientAssetsReader', () => {
  it('reads the build again when its manifest changes, looking at most once a second', () => {
    const root = mkdtempSync(join(tmpdir(), 'assets-reader-'));
    try {
      mkdirSync(join(root, '.vite'));
      const build = (script: string, mtime: number) => {
        const manifest = join(root, '.vite', 'manifest.json');
        writeFileSync(manifest, JSON.stringify({ 'index.html': { file: script, isEntry: true } }));
        utimesSync(manifest, mtime, mtime);
      };
      let now = 10_000;
      const read = clientAssetsReader(root, () => now);
      expect(read()).toBeNull();
      build('assets/a.js', 1_000);
      expect(read()?.script).toBe('/assets/a.js');
      build('assets/b.js', 2_000);
      now += 999;
      expect(read()?.script).toBe('/assets/a.js');
      now += 1;
      expect(read()?.script).toBe('/assets/b.js');
      rmSync(join(root, '.vite'), { recursive: true });
      now += 1_000;
      expect(read()).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('renderDocument', () => {
  const assets = { script: '/assets/index-abc.js', css: '.a{color:red}', preloads: ['/assets/vendor.js'] };

  it('puts the page, its assets and its data in one document', () => {
    const html = renderDocument({
      head: { title: 'Contact <Us>', description: 'Say "hi"' },
      assets,
      appHtml: '<main>page</main>',
      state: { mutations: [], queries: [dehydratedQuery(['getSession', {}], { name: '</script>' })] },
      stateElementId: 'query-state',
    });
    expect(html).toMatch(/^<!doctype html><html lang="en-US" dir="ltr"><head><meta charset="utf-8">/);
    expect(html).toContain('<title>Contact &#60;Us&#62;</title>');
    expect(html).toContain('<meta name="description" content="Say &#34;hi&#34;">');
    expect(html).toContain('<style>.a{color:red}</style><link rel="modulepreload" href="/assets/vendor.js">');
    expect(html).toContain('<script type="module" src="/assets/index-abc.js"></script>');
    expect(html).toContain('<div id="root"><main>page</main></div>');
    expect(html).toContain(
      '<script id="query-state" type="application/json">{"mutations":[],"queries":[{"state":{"data":{"name":"\\u003c/script\\u003e"},',
    );
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  });

  it('holds the first paint until the whole page is parsed: it waits for the element that follows the page', () => {
    const html = renderDocument({
      head: DEFAULT_HEAD,
      assets,
      appHtml: '<main id="main">page</main>',
      stateElementId: 's',
    });
    const expected = /<link rel="expect" href="#([^"]+)" blocking="render">/.exec(html)?.[1];
    expect(expected).toBeDefined();
    expect(html).toContain(`<div id="root"><main id="main">page</main></div><template id="${expected}"></template>`);
    expect(html.match(new RegExp(`id="${expected}"`, 'g'))).toHaveLength(1);
  });

  it('holds the stylesheets inline, none able to end the style element, and names each inline style for the policy', () => {
    const hostile = { ...assets, css: '.a::after{content:"</style><script>alert(1)</script>"}' };
    const html = renderDocument({ head: DEFAULT_HEAD, assets: hostile, appHtml: '', stateElementId: 's' });
    expect(html.match(/<\/style>/g)).toHaveLength(2); // the stylesheets' and the no-script style's
    const inline = [...html.matchAll(/<style>(.*?)<\/style>/gs)].map((match) => match[1]);
    expect(inline).toEqual(documentInlineStyles(hostile));
  });

  it('leaves the data out when the browser is to render the page alone', () => {
    const html = renderDocument({
      head: { title: 't', description: 'd' },
      assets,
      appHtml: '',
      stateElementId: 'query-state',
    });
    expect(html).toContain('<div id="root"></div></body>');
    expect(html).not.toContain('query-state');
  });
});

describe('sanitizeHeadTags', () => {
  it('keeps meta and descriptive link tags, written anew with escaped values', () => {
    expect(
      sanitizeHeadTags('<meta property="og:title" content="Contact Us"><meta property="og:type" content="website">'),
    ).toBe('<meta property="og:title" content="Contact Us"><meta property="og:type" content="website">');
    expect(sanitizeHeadTags(`<META NAME=author CONTENT='Tom &amp; "Jerry"'/>`)).toBe(
      '<meta name="author" content="Tom &#38; &#34;Jerry&#34;">',
    );
    expect(sanitizeHeadTags('<link rel="author" href="https://example.com/team" title="Team">')).toBe(
      '<link rel="author" href="https://example.com/team" title="Team">',
    );
  });

  it('drops scripts, styles, event handlers and every other element, with their content', () => {
    const dirty = [
      '<script>alert(1)</script>',
      '<script type="text/plain"><meta name="hidden" content="inside a script"></script>',
      '<style>body{display:none}</style>',
      '<img src=x onerror=alert(1)>',
      '<meta name="x" content="y" onload="alert(1)">',
      '<!-- <meta name="commented" content="out"> -->',
      '<iframe src="https://evil.example"></iframe>',
      'plain text',
    ].join('');
    expect(sanitizeHeadTags(dirty)).toBe('<meta name="x" content="y">');
  });

  it('refuses tags that load something, redirect, or set what the page sets itself', () => {
    for (const tag of [
      '<link rel="stylesheet" href="https://evil.example/x.css">',
      '<link rel="preload" as="script" href="/x.js">',
      '<link rel="icon" href="https://evil.example/icon.png">',
      '<link rel="alternate stylesheet" href="/x.css">',
      '<link rel="author" href="javascript:alert(1)">',
      '<link rel="author" href="//evil.example/x">',
      '<link rel="canonical" href="https://example.com/other">',
      '<link rel="alternate" hreflang="fr" href="https://example.com/fr">',
      '<meta http-equiv="refresh" content="0; url=https://evil.example">',
      '<meta charset="utf-7">',
      '<meta name="robots" content="noindex">',
      '<meta name="viewport" content="width=10">',
      '<meta name="description" content="another">',
      '<meta name="x">',
      '<meta content="no name">',
      '<meta name="bad name" content="x">',
    ]) {
      expect(sanitizeHeadTags(tag), tag).toBe('');
    }
  });

  it('reads quoted ">" inside values and the first of a repeated attribute, as a browser does', () => {
    expect(
      parseStartTags('<meta name="a>b" content=\'x>y\' name="second">').map((tag) =>
        Object.fromEntries(tag.attributes),
      ),
    ).toEqual([{ name: 'a>b', content: 'x>y' }]);
    expect(sanitizeHeadTags('<meta name="twitter:card" content="<script>alert(1)</script>">')).toBe(
      '<meta name="twitter:card" content="&#60;script&#62;alert(1)&#60;/script&#62;">',
    );
  });

  it('answers nothing for no tags', () => {
    expect(sanitizeHeadTags(null)).toBe('');
    expect(sanitizeHeadTags('')).toBe('');
  });
});

describe('headFromSeo', () => {
  const properties = {
    fields: {},
    objectName: null,
    recordId: 'contact_us',
    recordName: 'Contact Us',
    title: 'Contact Us',
    description: 'Find us.',
    customHeadTags: '<meta property="og:type" content="website"><script>x()</script>',
    canonicalUrl: 'https://store.example/contact-us',
    hrefLangUrls: [
      { hrefLang: 'en-US', url: 'https://store.example/contact-us' },
      { hrefLang: 'fr-CA', url: 'https://store.example/fr/contact-us' },
      { hrefLang: 'not a tag', url: 'https://store.example/x' },
      { hrefLang: 'de', url: 'javascript:alert(1)' },
    ],
    isSeoIndexed: true,
    complexFields: {},
  };

  it('makes title, description, canonical, hreflang alternates and the sanitised custom tags', () => {
    expect(headFromSeo(properties)).toEqual({
      title: 'Contact Us',
      description: 'Find us.',
      extra:
        '<link rel="canonical" href="https://store.example/contact-us">' +
        '<link rel="alternate" hreflang="en-US" href="https://store.example/contact-us">' +
        '<link rel="alternate" hreflang="fr-CA" href="https://store.example/fr/contact-us">' +
        '<meta property="og:type" content="website">',
    });
  });

  it('asks robots not to index a page that is not to be indexed', () => {
    expect(headFromSeo({ ...properties, isSeoIndexed: false }).extra).toMatch(
      /^<meta name="robots" content="noindex">/,
    );
  });

  it('escapes the title and description, and falls back where the settings have none', () => {
    const head = headFromSeo({
      ...properties,
      title: 'A </title><script>',
      description: null,
      canonicalUrl: '/relative',
      hrefLangUrls: [],
      customHeadTags: null,
    });
    expect(head).toEqual({ title: 'A </title><script>', description: DEFAULT_HEAD.description, extra: '' });
    const html = renderDocument({
      head,
      assets: { script: '/a.js', css: '', preloads: [] },
      appHtml: '',
      stateElementId: 's',
    });
    expect(html).toContain('<title>A &#60;/title&#62;&#60;script&#62;</title>');
  });

  it('is the default head without properties', () => {
    expect(headFromSeo(undefined)).toBe(DEFAULT_HEAD);
  });
});
