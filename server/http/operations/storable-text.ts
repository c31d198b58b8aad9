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
  return text.includes('\u0000')
    ? 'contains the character U+0000, which cannot be stored'
    : 'contains a lone UTF-16 surrogate, which is not valid Unicode';
}

/** An array or object still to look into, with the way to it: its key and the entry of its parent. */
interface Pending {
  value: object;
  key: string | number;
  parent: Pending | null;
}

/** The keys from the document's root to entry, then key. */
function pathTo(entry: Pending, key?: string | number): (string | number)[] {
  const path: (string | number)[] = key === undefined ? [] : [key];
  for (let at: Pending | null = entry; at.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The path of a string (a value, or an object's key) in value that cannot be stored, or null: the first
 * found, looking at an array's or object's own strings before those of the arrays and objects inside it.
 * Iterative, so that a deeply nested document cannot overflow the stack. Each array and object is looked
 * into once and holds only the way back to its parent (the path is spelled out only for the string found),
 * so the work is linear in the document's size however deep it is.
 */
export function findUnstorableText(value: unknown): { path: (string | number)[]; text: string } | null {
  if (typeof value === 'string') return isStorableText(value) ? null : { path: [], text: value };
  if (!isContainer(value)) return null;
  const pending: Pending[] = [{ value, key: '', parent: null }];
  while (pending.length > 0) {
    const entry = pending.pop()!;
    const container = entry.value;
    // Its strings are checked at once, in order; the arrays and objects in it are looked into afterwards, in
    // order too (pushed last first).
    const nested: Pending[] = [];
    if (Array.isArray(container)) {
      for (let index = 0; index < container.length; index++) {
        const item: unknown = container[index];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return { path: pathTo(entry, index), text: item };
        } else if (isContainer(item)) nested.push({ value: item, key: index, parent: entry });
      }
    } else {
      for (const key in container) {
        if (!Object.hasOwn(container, key)) continue;
        if (!isStorableText(key)) return { path: pathTo(entry, key), text: key };
        const item: unknown = (container as Record<string, unknown>)[key];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return { path: pathTo(entry, key), text: item };
        } else if (isContainer(item)) nested.push({ value: item, key, parent: entry });
      }
    }
    for (let index = nested.length - 1; index >= 0; index--) pending.push(nested[index]);
  }
  return null;
}

/** An array or a plain object: what may hold strings. */
function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !(value instanceof Date);
}
