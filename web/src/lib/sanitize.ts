/**
 * Text-block sanitising (docs/product-spec.md §5): every tag and attribute is stripped so that only plain text
 * remains. Works without a DOM, so that the server renders what the browser renders. The result is text:
 * React escapes it again when it is rendered, so a decoded "&lt;script&gt;" shows as characters.
 */

/** Elements whose content is not text: dropped along with their tags. */
const NON_TEXT_ELEMENTS =
  /<(script|style|template|iframe|object|embed|noscript|svg|math|title)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
/** Tags after which words must not run together. */
const BREAKING_TAG =
  /^<\/?(?:br|p|div|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|section|article|header|footer|aside|nav|blockquote|pre|hr|address|figure|figcaption)\b/i;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  deg: '°',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

/** Removes tags (with their attributes, quoted '>' included), comments and declarations. */
function stripTags(html: string): string {
  let text = '';
  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      text += html.slice(position);
      break;
    }
    text += html.slice(position, open);
    const next = html[open + 1];
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      position = close === -1 ? html.length : close + 3;
      continue;
    }
    if (next === undefined || !/[a-z/!?]/i.test(next)) {
      // A lone "<" (as in "a < b") is text.
      text += '<';
      position = open + 1;
      continue;
    }
    let end = open + 1;
    let quote: string | null = null;
    while (end < html.length) {
      const char = html[end];
      if (quote) {
        if (char === quote) quote = null;
      } else if (char === '"' || char === "'") {
        quote = char;
      } else if (char === '>') {
        break;
      }
      end++;
    }
    if (BREAKING_TAG.test(html.slice(open, end + 1))) text += ' ';
    position = end + 1;
  }
  return text;
}

/** The plain text of a piece of rich text: no tags, entities decoded, runs of white space collapsed. */
export function toPlainText(html: string | null | undefined): string {
  if (typeof html !== 'string' || html === '') return '';
  const withoutNonText = html.replace(NON_TEXT_ELEMENTS, '');
  return decodeEntities(stripTags(withoutNonText))
    .replace(/[ \t\n\r\f]+/g, ' ')
    .trim();
}
