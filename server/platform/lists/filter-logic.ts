/**
 * A list view's filter logic string, such as `1 AND (2 OR NOT 3)`: one-based numbers of its filters combined
 * with AND, OR, NOT and parentheses, keywords in any case. As on the platform, AND and OR are never mixed at
 * one level without parentheses, and every filter must be named. Pure functions.
 */
import { PlatformError } from '../core/errors.ts';

export type FilterLogic = { filter: number } | { and: FilterLogic[] } | { or: FilterLogic[] } | { not: FilterLogic };

/** Longest filter logic string read. */
const MAX_FILTER_LOGIC_LENGTH = 1000;

const invalidFilterLogic = (problem: string) =>
  new PlatformError(400, 'INVALID_FILTER_LOGIC', `Invalid filter logic: ${problem}`);

const TOKEN = /\s*(?:(\d{1,3})|(\()|(\))|([A-Za-z]+)|(\S))/y;

type Token = { kind: 'number'; value: number } | { kind: '(' | ')' } | { kind: 'AND' | 'OR' | 'NOT' };

function tokens(text: string): Token[] {
  const found: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) break;
    const [, number, open, close, word, other] = match;
    if (number !== undefined) found.push({ kind: 'number', value: Number(number) });
    else if (open) found.push({ kind: '(' });
    else if (close) found.push({ kind: ')' });
    else if (word !== undefined && ['AND', 'OR', 'NOT'].includes(word.toUpperCase()))
      found.push({ kind: word.toUpperCase() as 'AND' | 'OR' | 'NOT' });
    else if (word !== undefined || other !== undefined)
      throw invalidFilterLogic(
        `unexpected '${(word ?? other).slice(0, 20)}' at position ${at + match[0].length - (word ?? other).length}`,
      );
  }
  return found;
}

/** The filter logic of `filterCount` filters; absent or blank: all of them ANDed. */
export function parseFilterLogic(text: string | null | undefined, filterCount: number): FilterLogic {
  const all = (): FilterLogic => ({ and: Array.from({ length: filterCount }, (_, index) => ({ filter: index + 1 })) });
  if (text === null || text === undefined || text.trim() === '') return all();
  if (text.length > MAX_FILTER_LOGIC_LENGTH)
    throw invalidFilterLogic(`longer than ${MAX_FILTER_LOGIC_LENGTH} characters`);
  if (filterCount === 0) throw invalidFilterLogic('there are no filters to combine');
  const list = tokens(text);
  let position = 0;
  const named = new Set<number>();
  const peek = () => list[position];

  const primary = (): FilterLogic => {
    const token = list[position++];
    if (!token) throw invalidFilterLogic('it ends where a filter number was expected');
    if (token.kind === 'NOT') return { not: primary() };
    if (token.kind === '(') {
      const inner = expression();
      if (list[position++]?.kind !== ')') throw invalidFilterLogic("a '(' is not closed");
      return inner;
    }
    if (token.kind === 'number') {
      if (token.value < 1 || token.value > filterCount)
        throw invalidFilterLogic(`filter ${token.value} does not exist (there are ${filterCount})`);
      named.add(token.value);
      return { filter: token.value };
    }
    throw invalidFilterLogic(`unexpected ${token.kind} where a filter number was expected`);
  };

  const expression = (): FilterLogic => {
    const first = primary();
    const next = peek();
    if (next?.kind !== 'AND' && next?.kind !== 'OR') return first;
    const operator = next.kind;
    const parts = [first];
    while (peek()?.kind === 'AND' || peek()?.kind === 'OR') {
      if (peek()!.kind !== operator)
        throw invalidFilterLogic('AND and OR at one level need parentheses, such as 1 AND (2 OR 3)');
      position++;
      parts.push(primary());
    }
    return operator === 'AND' ? { and: parts } : { or: parts };
  };

  const logic = expression();
  if (position < list.length)
    throw invalidFilterLogic(
      `unexpected ${list[position].kind === 'number' ? 'filter number' : list[position].kind} after the end`,
    );
  const missing = Array.from({ length: filterCount }, (_, index) => index + 1).filter((number) => !named.has(number));
  if (missing.length > 0) throw invalidFilterLogic(`filter ${missing.join(', ')} is defined but not used`);
  return logic;
}

/** The filters that every record of the list must pass: those ANDed at the top of the logic. */
export function requiredFilters(logic: FilterLogic): number[] {
  if ('filter' in logic) return [logic.filter];
  if ('and' in logic) return logic.and.flatMap(requiredFilters);
  return [];
}
