/**
 * Custom head tags from the page's SEO settings, made safe to put in the head: the markup is parsed, and
 * only <meta> and <link> elements with allowed attributes survive, written out again with every value
 * escaped. Nothing of the original text is copied through, so no script, style, event handler, refresh or
 * stylesheet can get in, whatever the settings hold.
 */
import { escapeHtml } from './serialize.ts';

interface ParsedTag {
  name: string;
  attributes: Map<string, string>;
}

/** Elements whose content is raw text: skipped whole, so that markup inside them is not read as tags. */
const RAW_TEXT = new Set([
  'script',
  'style',
  'title',
  'textarea',
  'noscript',
  'template',
  'iframe',
  'xmp',
  'noembed',
  'noframes',
  'plaintext',
]);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\r' || char === '\f';

/** Reads the start tags of an HTML fragment, as a browser would tokenise them (comments and raw text skipped). */
export function parseStartTags(html: string): ParsedTag[] {
  const tags: ParsedTag[] = [];
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end === -1 ? html.length : end + 3;
      continue;
    }
    const nameMatch = /^<(\/?)([a-zA-Z][^\s/>]*)/.exec(html.slice(open, open + 64));
    if (!nameMatch) {
      // "<!doctype", "<?x", a lone "<": not a tag; a bogus comment runs to the next ">".
      const end = /^<[!?/]/.test(html.slice(open, open + 2)) ? html.indexOf('>', open) : open;
      at = end === -1 ? html.length : end + 1;
      continue;
    }
    const closing = nameMatch[1] === '/';
    const name = nameMatch[2].toLowerCase();
    const attributes = new Map<string, string>();
    let i = open + nameMatch[0].length;
    // Attributes, until the ">" that is not inside a quoted value.
    while (i < html.length && html[i] !== '>') {
      if (isSpace(html[i]) || html[i] === '/') {
        i++;
        continue;
      }
      let attrEnd = i;
      while (attrEnd < html.length && !isSpace(html[attrEnd]) && !'/>='.includes(html[attrEnd])) attrEnd++;
      if (attrEnd === i) attrEnd = i + 1; // "=" with no name: taken as a name of its own, as browsers do
      const attrName = html.slice(i, attrEnd).toLowerCase();
      i = attrEnd;
      while (isSpace(html[i])) i++;
      let value = '';
      if (html[i] === '=') {
        i++;
        while (isSpace(html[i])) i++;
        const quote = html[i];
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, i + 1);
          value = html.slice(i + 1, end === -1 ? html.length : end);
          i = end === -1 ? html.length : end + 1;
        } else {
          const start = i;
          while (i < html.length && !isSpace(html[i]) && html[i] !== '>') i++;
          value = html.slice(start, i);
        }
      }
      // The first of a repeated attribute counts, as in browsers.
      if (!attributes.has(attrName)) attributes.set(attrName, decodeEntities(value));
    }
    at = i + 1;
    if (closing) continue;
    tags.push({ name, attributes });
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}[\\s/>]`, 'i').exec(html.slice(at));
      at = close ? at + close.index + close[0].length : html.length;
    }
  }
  return tags;
}

/** Meta names the page sets itself (or that change how the document is read): not taken from settings. */
const RESERVED_META_NAMES = new Set([
  'viewport',
  'description',
  'robots',
  'googlebot',
  'referrer',
  'color-scheme',
  'theme-color',
]);
/**
 * Link relations that only describe the page. Relations that load something (stylesheet, preload, icon,
 * manifest, modulepreload, preconnect, prefetch...) or that the page sets itself (canonical, alternate with
 * hreflang) are left out.
 */
const DESCRIPTIVE_RELS = new Set([
  'alternate',
  'author',
  'license',
  'help',
  'me',
  'publisher',
  'search',
  'shortlink',
  'next',
  'prev',
]);

const META_NAME = /^[a-z0-9][a-z0-9:._-]{0,99}$/i;
const LANGUAGE_TAG = /^(?:[a-z]{2,3}(?:-[a-z0-9]{2,8})*|x-default)$/i;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const MAX_CONTENT_LENGTH = 2000;

/** An absolute http(s) URL, or a site-relative one (one slash); null for anything else. */
export function safeHeadUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  // Browsers drop tabs and newlines in URLs and spaces at their ends: check what they would follow.
  const href = url.replace(/[\t\n\r]/g, '').trim();
  if (href.startsWith('/')) return href[1] === '/' || href[1] === '\\' ? null : href;
  try {
    const parsed = new URL(href);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.username && !parsed.password
      ? href
      : null;
  } catch {
    return null;
  }
}

function attribute(name: string, value: string): string {
  return ` ${name}="${escapeHtml(value)}"`;
}

function safeMeta(attributes: Map<string, string>): string | null {
  const content = attributes.get('content');
  if (content === undefined || content.length > MAX_CONTENT_LENGTH) return null;
  // http-equiv (refresh, set-cookie, content-security-policy...) and charset are never taken.
  if (attributes.has('http-equiv') || attributes.has('charset')) return null;
  let out = '';
  for (const key of ['name', 'property', 'itemprop'] as const) {
    const value = attributes.get(key);
    if (value === undefined) continue;
    if (!META_NAME.test(value)) return null;
    if (key === 'name' && RESERVED_META_NAMES.has(value.toLowerCase())) return null;
    out += attribute(key, value);
  }
  if (!out) return null;
  return `<meta${out}${attribute('content', content)}>`;
}

function safeLink(attributes: Map<string, string>): string | null {
  const rels = (attributes.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (rels.length === 0 || !rels.every((rel) => DESCRIPTIVE_RELS.has(rel))) return null;
  if (attributes.has('hreflang')) return null;
  const href = safeHeadUrl(attributes.get('href'));
  if (!href) return null;
  let out = attribute('rel', rels.join(' ')) + attribute('href', href);
  const type = attributes.get('type');
  if (type !== undefined) {
    if (!MEDIA_TYPE.test(type)) return null;
    out += attribute('type', type);
  }
  const title = attributes.get('title');
  if (title !== undefined && title.length <= 200) out += attribute('title', title);
  return `<link${out}>`;
}

/**
 * The custom head tags of the SEO settings as safe markup: each <meta> (name, property or itemprop with
 * content) and descriptive <link> (rel, href, type, title) written anew; everything else dropped.
 */
export function sanitizeHeadTags(html: string | null | undefined): string {
  if (!html) return '';
  const out: string[] = [];
  for (const tag of parseStartTags(html)) {
    const safe = tag.name === 'meta' ? safeMeta(tag.attributes) : tag.name === 'link' ? safeLink(tag.attributes) : null;
    if (safe && !out.includes(safe)) out.push(safe);
  }
  return out.join('');
}

export function isLanguageTag(value: string): boolean {
  return LANGUAGE_TAG.test(value);
}
