/**
 * The syntax of the `where` parameter: GraphQL-style object literals read into plain values, and every
 * malformed text refused with a 400 that says where it went wrong.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import {
  EnumSymbol,
  MAX_SYNTAX_DEPTH,
  MAX_WHERE_LENGTH,
  parseWhere,
} from '../../server/platform/query/where-parser.ts';

/** The parsed value as plain JSON (enum values as {enum: NAME}), for comparison. */
const plain = (text: string) =>
  JSON.parse(
    JSON.stringify(parseWhere(text), (_key, value) => (value instanceof EnumSymbol ? { enum: value.name } : value)),
  );

function refusal(text: string): PlatformError {
  try {
    parseWhere(text);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    return error as PlatformError;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseWhere', () => {
  it('reads the platform documentation example', () => {
    expect(
      plain('{ and: [ { StageName: { eq: "Prospecting" } }, { Account: { Name: { eq: "Dickenson plc" } } } ] }'),
    ).toEqual({
      and: [{ StageName: { eq: 'Prospecting' } }, { Account: { Name: { eq: 'Dickenson plc' } } }],
    });
  });

  it('reads bare and quoted keys, strings, numbers, booleans, null, enum values and lists', () => {
    expect(
      plain(
        '{"Name": {eq: "a"}, Amount: {gt: -1.5e3, lt: 10}, Flag: {eq: true}, Off: {ne: false}, Gone: {eq: null}, D: {eq: {literal: TODAY}}, L: {in: ["x", "y"]}}',
      ),
    ).toEqual({
      Name: { eq: 'a' },
      Amount: { gt: -1500, lt: 10 },
      Flag: { eq: true },
      Off: { ne: false },
      Gone: { eq: null },
      D: { eq: { literal: { enum: 'TODAY' } } },
      L: { in: ['x', 'y'] },
    });
  });

  it('treats commas as optional, as GraphQL does, and allows a trailing one', () => {
    expect(plain('{ A: { in: [1 2 3,] } B: { eq: "b" }, }')).toEqual({ A: { in: [1, 2, 3] }, B: { eq: 'b' } });
  });

  it('decodes JSON string escapes', () => {
    expect(parseWhere(String.raw`{ N: { eq: "a\"b\\c\/d\n\u00e9" } }`)).toEqual({ N: { eq: 'a"b\\c/d\né' } });
  });

  it('keeps quotes, dollar signs and SQL in strings as plain text', () => {
    expect(parseWhere(`{ N: { eq: "'); DROP TABLE record; -- $1" } }`)).toEqual({
      N: { eq: "'); DROP TABLE record; -- $1" },
    });
  });

  it('reads a blank text as no filter', () => {
    expect(plain('')).toEqual({});
    expect(plain('  \n ')).toEqual({});
    expect(plain('{}')).toEqual({});
  });

  it('gives keys such as __proto__ no special meaning', () => {
    const parsed = parseWhere('{ __proto__: { eq: 1 }, constructor: { eq: 2 } }');
    expect(Object.keys(parsed)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it.each([
    ['an unclosed object', '{ Name: { eq: "a" }', "expected '}' but the text ended"],
    ['text after the object', '{ Name: { eq: "a" } } x', 'after the end of the filter'],
    ['a list at the top', '[{ Name: { eq: "a" } }]', "expected an object starting with '{'"],
    ['a missing colon', '{ Name { eq: "a" } }', "expected ':'"],
    ['a key given twice', '{ Name: { eq: "a" }, Name: { eq: "b" } }', 'the key "Name" appears twice'],
    ['single quotes', "{ Name: { eq: 'a' } }", 'unexpected "\'"'],
    ['a GraphQL variable', '{ Name: { eq: $name } }', 'unexpected "$"'],
    ['an unclosed string', '{ Name: { eq: "a } }', 'a string is not closed'],
    ['a raw line break in a string', '{ Name: { eq: "a\nb" } }', 'control character'],
    ['a bad escape', String.raw`{ Name: { eq: "a\q" } }`, 'invalid escape'],
    ['a NUL character, which PostgreSQL text cannot hold', String.raw`{ Name: { eq: "a\u0000" } }`, 'NUL character'],
    ['a number glued to letters', '{ N: { eq: 12abc } }', 'malformed number'],
    ['a number with a leading zero', '{ N: { eq: 012 } }', 'malformed number'],
    ['a number out of range', '{ N: { eq: 1e999 } }', 'out of range'],
    ['a key that is not a name', '{ 1: { eq: 1 } }', 'expected a key'],
    ['a backslash outside a string', String.raw`{ Na\me: { eq: 1 } }`, "expected ':'"],
  ])('refuses %s', (_name, text, problem) => {
    const error = refusal(text);
    expect(error.status).toBe(400);
    expect(error.errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(error.message).toContain("Illegal value for parameter 'where'");
    expect(error.message).toContain(problem);
    expect(error.message).toMatch(/at position \d+$/);
  });

  it('says where the text went wrong', () => {
    expect(refusal('{ Name: { eq: "a" } } x').message).toContain('at position 22');
  });

  it('refuses nesting deeper than the syntax limit before going deeper', () => {
    const deep = `{ a: ${'['.repeat(MAX_SYNTAX_DEPTH + 5)}${']'.repeat(MAX_SYNTAX_DEPTH + 5)} }`;
    expect(refusal(deep).message).toContain(`nested deeper than ${MAX_SYNTAX_DEPTH} levels`);
    // Far deeper than a stack could take if the limit were not checked on the way down.
    expect(refusal(`{ a: ${'['.repeat(10_000)}`).errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
  });

  it('refuses a text longer than the limit', () => {
    const long = `{ Name: { eq: "${'x'.repeat(MAX_WHERE_LENGTH)}" } }`;
    expect(refusal(long).message).toContain(`longer than ${MAX_WHERE_LENGTH} characters`);
  });

  it('names the parameter it was given', () => {
    expect(() => parseWhere('{', 'filter')).toThrow("Illegal value for parameter 'filter'");
  });
});
