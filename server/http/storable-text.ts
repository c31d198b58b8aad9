/**
 * Text the database cannot store: PostgreSQL's text and jsonb refuse U+0000, and a UTF-16 surrogate without
 * its pair has no UTF-8 form (jsonb refuses its \uD800 escape). Every operation's validated input is checked
 * for it once, after the contract's validation (implement() in operation.ts), so that such text is a 400
 * naming the field rather than a database error.
 */

/** U+0000, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// Without the u flag the pattern sees UTF-16 code units, which is what finds an unpaired surrogate.
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string can be stored as text: no U+0000 and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** What in a string the database refuses, for the message. */
export function unstorableReason(text: string): string {
  return text.includes('\u0000') ? 'contains the character U+0000, which cannot be stored' : 'contains a lone UTF-16 surrogate, which is not valid Unicode';
}

/**
 * The path of the first string (a value, or an object's key) in value that cannot be stored, or null.
 * Iterative, so that a deeply nested document cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): { path: (string | number)[]; text: string } | null {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return { path, text: current };
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) pending.push({ value: current[index], path: [...path, index] });
    } else if (current && typeof current === 'object' && !(current instanceof Date)) {
      for (const [key, item] of Object.entries(current)) {
        if (!isStorableText(key)) return { path: [...path, key], text: key };
        pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return null;
}
