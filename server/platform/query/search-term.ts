/**
 * The `searchTerm` of list requests: records any of whose searchable text fields contains the term,
 * without regard to case. `*` stands for any run of characters and `?` for one character, as in the
 * platform's search; every other character, LIKE's own % _ and \ included, means itself.
 */
import type { FieldDefinition } from '../core/definitions.ts';
import { illegalValue } from './errors.ts';
import { readableField, rootScope, valueKindOf } from './fields.ts';
import { anyOf, type SqlParameters } from './sql.ts';
import type { QueryTarget } from './target.ts';

export const MAX_SEARCH_TERM_LENGTH = 255;

/** The ILIKE pattern of a term (contains, wildcards translated, metacharacters escaped); null for a blank term. */
export function searchPattern(term: string | null | undefined): string | null {
  const trimmed = term?.trim() ?? '';
  if (trimmed === '') return null;
  if (trimmed.length > MAX_SEARCH_TERM_LENGTH)
    throw illegalValue('searchTerm', `longer than ${MAX_SEARCH_TERM_LENGTH} characters`);
  // PostgreSQL text cannot hold NUL: refused here rather than failing in the database.
  if (trimmed.includes('\u0000')) throw illegalValue('searchTerm', 'holds a NUL character');
  const escaped = trimmed
    .replace(/[\\%_]/g, (char) => `\\${char}`)
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
  return `%${escaped}%`;
}

/**
 * The fields a search looks in: the object's text fields (its name fields among them; ids and references
 * are not text) that the caller may read; or, when `names` is given (a list view's columns), those of them
 * that are text.
 */
export function searchableFields(target: QueryTarget, names?: readonly string[]): FieldDefinition[] {
  const root = rootScope(target.object, 'r');
  const candidates = names
    ? names
        .map((name) => readableField(target, root, name))
        .filter((field): field is FieldDefinition => field !== undefined)
    : target.object.fields.filter((field) => target.access.canReadField(target.object, field));
  return [...new Set(candidates)].filter(
    (field) => valueKindOf(field) === 'text' || valueKindOf(field) === 'multipicklist',
  );
}

/**
 * The condition a searchTerm puts on the rows of the queried object named alias; null for a blank term.
 * With no field to look in, nothing matches.
 */
export function searchTermCondition(
  term: string | null | undefined,
  target: QueryTarget,
  alias: string,
  parameters: SqlParameters,
  names?: readonly string[],
): string | null {
  const pattern = searchPattern(term);
  if (pattern === null) return null;
  const fields = searchableFields(target, names);
  if (fields.length === 0) return 'FALSE';
  const root = rootScope(target.object, alias);
  const placeholder = parameters.add(pattern, 'text');
  // Plain ILIKEs (no IS TRUE around them), so that trigram indexes of the columns can answer them.
  return anyOf(fields.map((field) => `(${root.value(field)} ILIKE ${placeholder})`));
}
