/**
 * How deeply a JSON text nests its arrays and objects, read before the text is parsed. Every pass over a
 * parsed document (the contract's validation, the check for unstorable text, the where compiler) then works
 * on a document no deeper than the limit, so that no request can make one of them slow or overflow a stack.
 */

/**
 * The deepest nesting of arrays and objects a JSON body or JSON parameter may have. The platform's payloads
 * need far less: its request bodies a handful of levels (a batch of record inputs: body, operations, inputs,
 * fields), its deepest answer in the contract's examples (a record UI) 14; a where filter's conditions are
 * bounded tighter by their own parser (MAX_SYNTAX_DEPTH, 40).
 */
export const MAX_JSON_DEPTH = 64;

/** A quote or a backslash: the only characters that matter inside a JSON string. */
const STRING_END = /["\\]/g;

/**
 * Whether text nests arrays and objects deeper than limit, in one pass over it (strings skipped, escapes
 * honoured). Text that is not JSON gives an answer too; parsing it is what tells that it is not JSON.
 */
export function jsonNestingExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      // To the string's closing quote, skipping each escaped character.
      for (;;) {
        STRING_END.lastIndex = index + 1;
        const end = STRING_END.exec(text);
        if (!end) return false;
        index = end.index;
        if (end[0] === '"') break;
        index++;
      }
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if ((char === 0x5d /* ] */ || char === 0x7d) /* } */ && depth > 0) {
      depth--;
    }
  }
  return false;
}

export const JSON_TOO_DEEP_MESSAGE = `The JSON nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;
