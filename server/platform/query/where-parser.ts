/**
 * Reads the `where` parameter: a GraphQL-style object literal such as
 * `{ and: [ { StageName: { eq: "Prospecting" } }, { Account: { Name: { like: "Dick%" } } } ] }`.
 * Keys may be bare names or double-quoted strings; values are double-quoted strings, numbers, true, false,
 * null, bare names (enum values such as TODAY), lists and objects. Commas are optional, as in GraphQL.
 * Only the syntax is checked here; what the keys mean is where.ts's business.
 */
import { excerpt, illegalValue } from './errors.ts';

/** A bare name used as a value (`literal: TODAY`), kept apart from a string. */
export class EnumSymbol {
  constructor(readonly name: string) {}
}

export type WhereValue = string | number | boolean | null | EnumSymbol | WhereValue[] | WhereObject;
export interface WhereObject {
  [key: string]: WhereValue;
}

/** Longest `where` text read; the condition limits of where.ts bound the work long before this. */
export const MAX_WHERE_LENGTH = 20_000;
/** Deepest nesting of braces and brackets: enough for the condition depth where.ts allows. */
export const MAX_SYNTAX_DEPTH = 40;

export const isWhereObject = (value: WhereValue | undefined): value is WhereObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof EnumSymbol);

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class WhereReader {
  private position = 0;

  constructor(
    private readonly text: string,
    private readonly parameter: string,
  ) {}

  fail(problem: string): never {
    throw illegalValue(this.parameter, `${problem} at position ${this.position}`);
  }

  private skipBlanks(): void {
    while (this.position < this.text.length && /[\s,]/.test(this.text[this.position])) this.position++;
  }

  private peek(): string | undefined {
    this.skipBlanks();
    return this.text[this.position];
  }

  private expect(char: string): void {
    if (this.peek() !== char)
      this.fail(
        this.position < this.text.length
          ? `expected '${char}' but found ${excerpt(this.text[this.position])}`
          : `expected '${char}' but the text ended`,
      );
    this.position++;
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.position;
    const found = pattern.exec(this.text)?.[0];
    if (found !== undefined) this.position += found.length;
    return found;
  }

  readDocument(): WhereObject {
    if (this.peek() !== '{') this.fail("expected an object starting with '{'");
    const value = this.readObject(1);
    if (this.peek() !== undefined)
      this.fail(`unexpected ${excerpt(this.text[this.position])} after the end of the filter`);
    return value;
  }

  private readValue(depth: number): WhereValue {
    const char = this.peek();
    if (char === '{') return this.readObject(depth + 1);
    if (char === '[') return this.readList(depth + 1);
    if (char === '"') return this.readString();
    if (char !== undefined && /[-0-9]/.test(char)) return this.readNumber();
    const name = this.match(NAME);
    if (name === 'true') return true;
    if (name === 'false') return false;
    if (name === 'null') return null;
    if (name !== undefined) return new EnumSymbol(name);
    return this.fail(char === undefined ? 'expected a value but the text ended' : `unexpected ${excerpt(char)}`);
  }

  private enter(depth: number): void {
    if (depth > MAX_SYNTAX_DEPTH) this.fail(`nested deeper than ${MAX_SYNTAX_DEPTH} levels`);
  }

  private readObject(depth: number): WhereObject {
    this.enter(depth);
    this.expect('{');
    // No prototype: a key such as __proto__ or constructor is just an unknown field name.
    const object: WhereObject = Object.create(null);
    while (this.peek() !== '}') {
      if (this.peek() === undefined) this.fail("expected '}' but the text ended");
      const keyAt = this.position;
      const key = this.peek() === '"' ? this.readString() : this.match(NAME);
      if (key === undefined) this.fail(`expected a key but found ${excerpt(this.text[this.position])}`);
      if (Object.hasOwn(object, key)) {
        this.position = keyAt;
        this.fail(`the key ${excerpt(key)} appears twice in one object`);
      }
      this.expect(':');
      object[key] = this.readValue(depth);
    }
    this.position++;
    return object;
  }

  private readList(depth: number): WhereValue[] {
    this.enter(depth);
    this.expect('[');
    const list: WhereValue[] = [];
    while (this.peek() !== ']') {
      if (this.peek() === undefined) this.fail("expected ']' but the text ended");
      list.push(this.readValue(depth));
    }
    this.position++;
    return list;
  }

  private readString(): string {
    this.position++;
    let value = '';
    for (;;) {
      const char = this.text[this.position];
      if (char === undefined) this.fail('a string is not closed');
      if (char === '"') break;
      if (char < ' ') this.fail('a string holds a control character');
      if (char !== '\\') {
        value += char;
        this.position++;
        continue;
      }
      const escaped = this.text[this.position + 1];
      if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.position + 2, this.position + 6))) {
        const code = parseInt(this.text.slice(this.position + 2, this.position + 6), 16);
        // PostgreSQL text cannot hold NUL: refused here rather than failing in the database.
        if (code === 0) this.fail('a string holds a NUL character');
        value += String.fromCharCode(code);
        this.position += 6;
      } else if (escaped !== undefined && ESCAPES[escaped] !== undefined) {
        value += ESCAPES[escaped];
        this.position += 2;
      } else {
        this.fail('a string has an invalid escape');
      }
    }
    this.position++;
    return value;
  }

  private readNumber(): number {
    const text = this.match(NUMBER);
    if (text === undefined) this.fail(`unexpected ${excerpt(this.text[this.position])}`);
    // A number glued to letters (12abc) is a typo, not 12 followed by a name.
    if (/[A-Za-z0-9_.]/.test(this.text[this.position] ?? ''))
      this.fail(`malformed number ${excerpt(text + this.text[this.position])}`);
    const value = Number(text);
    if (!Number.isFinite(value)) this.fail(`the number ${excerpt(text)} is out of range`);
    return value;
  }
}

/** Parses the text of a `where` parameter; a blank text is no filter (an empty object). */
export function parseWhere(text: string, parameter = 'where'): WhereObject {
  if (text.length > MAX_WHERE_LENGTH) throw illegalValue(parameter, `longer than ${MAX_WHERE_LENGTH} characters`);
  if (text.trim() === '') return Object.create(null);
  return new WhereReader(text, parameter).readDocument();
}
