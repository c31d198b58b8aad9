/**
 * JSON for a <script type="application/json"> element: "<" is escaped so that no "</script>" or "<!--"
 * in the data can end the element, ">" and "&" for good measure, U+2028/9 so that the text is also a
 * valid JavaScript literal. JSON.parse reads the escapes back as the same characters.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => ESCAPES[char]);
}

/** Text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
