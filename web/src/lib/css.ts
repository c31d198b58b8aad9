/** Values from content that end up in inline styles: only what cannot break out of the declaration. */
import { safeImageUrl } from './links';

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*[0-9.,%\s/+-]*(?:deg|turn|rad)?[0-9.,%\s/+-]*\)$/i;
const KEYWORD = /^[a-z]{3,30}$/i;
const TOKEN = /^var\(--[a-z0-9-]+\)$/i;

/** A CSS colour (hex, rgb()/hsl()-style functions, a keyword or a var(--token)); undefined otherwise. */
export function safeCssColor(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const color = value.trim();
  if (HEX.test(color) || FUNCTIONAL.test(color) || KEYWORD.test(color) || TOKEN.test(color)) return color;
  return undefined;
}

/** url("…") for a safe image URL, its quotes, backslashes and line breaks escaped; undefined otherwise. */
export function cssUrl(url: string | null | undefined): string | undefined {
  const safe = safeImageUrl(url);
  if (!safe) return undefined;
  const escaped = safe
    .replace(/["\\]/g, '\\$&')
    .replace(/[\n\r\f]/g, (char) => `\\${char.charCodeAt(0).toString(16)} `);
  return `url("${escaped}")`;
}
