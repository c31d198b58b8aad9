/** The HTML document around the rendered page. */
import type { ClientAssets } from './assets.ts';
import type { DehydratedState } from '@tanstack/react-query';
import { escapeHtml, serializeQueryState } from './serialize.ts';

export interface HeadTags {
  title: string;
  description: string;
  /**
   * Further head markup, trusted and already escaped: the place for the SEO properties (canonical URL,
   * hrefLang links, robots, custom head tags) that the SEO work will supply.
   */
  extra?: string;
}

/** Until the SEO properties arrive from their service (docs/product-spec.md §7, SEO). */
export const DEFAULT_HEAD: HeadTags = {
  title: 'Contact Us',
  description: 'Find contact details and an authorized sales representative in your area.',
};

interface DocumentParts {
  head: HeadTags;
  assets: ClientAssets;
  /** The rendered page; '' to let the browser render it alone. */
  appHtml: string;
  /** The dehydrated queries; undefined when the page was not rendered on the server. */
  state?: DehydratedState;
  stateElementId: string;
}

/** The empty element that follows a rendered page, which the browser waits for before it paints. */
const PAGE_END_ID = 'page-end';

/** Without JavaScript the comboboxes cannot work: the locator shows its plain form instead. */
const NO_SCRIPT_STYLE = '.js-only{display:none!important}';

/**
 * The app's stylesheets as the text of a style element: nothing in them may end the element early. Made once
 * per build's stylesheets (some 20 KB), not at each of the two uses of every render (the document, its policy).
 */
let inlined = { css: '', text: '' };
function inlineCss(css: string): string {
  if (inlined.css !== css) inlined = { css, text: css.replace(/<\/(style)/gi, '<\\/$1') };
  return inlined.text;
}

/** The document's inline style elements, which its Content-Security-Policy allows by hash. */
export function documentInlineStyles(assets: ClientAssets): string[] {
  return [inlineCss(assets.css), NO_SCRIPT_STYLE];
}

export function renderDocument({ head, assets, appHtml, state, stateElementId }: DocumentParts): string {
  // Inline rather than linked: the first paint waits for no stylesheet request (the page's HTML is kept
  // gzipped for guests, and the stylesheets add a few kilobytes to it).
  const styles = assets.css ? `<style>${inlineCss(assets.css)}</style>` : '';
  const preloads = assets.preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`).join('');
  const stateScript =
    state === undefined
      ? ''
      : `<script id="${stateElementId}" type="application/json">${serializeQueryState(state)}</script>`;
  return (
    '<!doctype html>' +
    '<html lang="en-US" dir="ltr">' +
    '<head>' +
    '<meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(head.title)}</title>` +
    `<meta name="description" content="${escapeHtml(head.description)}">` +
    (head.extra ?? '') +
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' +
    styles +
    preloads +
    `<script type="module" src="${escapeHtml(assets.script)}"></script>` +
    `<noscript><style>${NO_SCRIPT_STYLE}</style></noscript>` +
    // The browser may paint a document it has not all parsed: when the network brings it in parts, and when
    // its parser stops to paint on its own. Blocks sized by their texts (the banner's centred texts, the
    // default contact's block) then move as the rest comes in: nothing is painted before the page's HTML is
    // all in, up to the marker that follows it (or the document ends).
    (appHtml ? `<link rel="expect" href="#${PAGE_END_ID}" blocking="render">` : '') +
    '</head>' +
    '<body>' +
    `<div id="root">${appHtml}</div>` +
    (appHtml ? `<template id="${PAGE_END_ID}"></template>` : '') +
    stateScript +
    '</body>' +
    '</html>'
  );
}
