/**
 * The `sortBy` parameter: field paths (`Name`, `-CreatedDate`, `Account.Name`), comma-separated or as a
 * list, at most five; a leading `-` sorts descending. The records' Id always ends the order, ascending, so
 * that pages never overlap or skip records that tie; the platform echoes it (`Name,Id`, `-CreatedDate,Id`).
 * Nulls sort as in SOQL: first ascending, last descending. Text sorts without regard to case.
 */
import { illegalValue, notSortable } from './errors.ts';
import { isSortable, resolvePath, rootScope, valueKindOf } from './fields.ts';
import { SqlParameters } from './sql.ts';
import type { QueryTarget } from './target.ts';

export const MAX_SORT_FIELDS = 5;

interface SortKey {
  /** The field's path as the metadata spells it (`Account.Name`). */
  path: string;
  descending: boolean;
}

export interface SortOrder {
  /** The fields asked for, in order; the Id tie-break is not among them unless it was asked for. */
  keys: SortKey[];
  /** The order as the platform echoes it in list responses: `-CreatedDate,Id`. */
  sortBy: string;
  /** The same as a list, as related-list responses give it: ['-CreatedDate', 'Id']. */
  sortByList: string[];
}

const ID_TIE_BREAK: SortKey = { path: 'Id', descending: false };

const entriesOf = (input: string | string[] | null | undefined): string[] =>
  (Array.isArray(input) ? input : [input ?? ''])
    .flatMap((entry) => entry.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * Reads and checks a sortBy; when it names nothing, `fallback` (the list view's own order) is used. An
 * unknown, unreadable or unsortable field fails with INVALID_FIELD; too many or repeated fields with
 * ILLEGAL_QUERY_PARAMETER_VALUE.
 */
export function parseSortBy(
  input: string | string[] | null | undefined,
  target: QueryTarget,
  fallback?: string | string[],
): SortOrder {
  let entries = entriesOf(input);
  if (entries.length === 0) entries = entriesOf(fallback);
  if (entries.length > MAX_SORT_FIELDS)
    throw illegalValue('sortBy', `at most ${MAX_SORT_FIELDS} fields, not ${entries.length}`);
  // Only checking: placeholders of parents' visibility are handed out when orderByClause writes the SQL.
  const checking = new SqlParameters();
  const root = rootScope(target.object, 'r');
  const keys: SortKey[] = [];
  for (const entry of entries) {
    const descending = entry.startsWith('-');
    const { field, path } = resolvePath(target, descending ? entry.slice(1) : entry, checking, root);
    if (!isSortable(field)) throw notSortable(path);
    if (keys.some((key) => key.path.toLowerCase() === path.toLowerCase()))
      throw illegalValue('sortBy', `${path} is named twice`);
    keys.push({ path, descending });
  }
  const echoed = keys.some((key) => key.path === 'Id') ? keys : [...keys, ID_TIE_BREAK];
  const sortByList = echoed.map((key) => `${key.descending ? '-' : ''}${key.path}`);
  return { keys, sortBy: sortByList.join(','), sortByList };
}

/** The ORDER BY list (without the keywords) of a checked order, for the queried object's row named alias. */
export function orderByClause(order: SortOrder, target: QueryTarget, alias: string, parameters: SqlParameters): string {
  const root = rootScope(target.object, alias);
  const terms = order.keys.map((key) => {
    const { scope, field } = resolvePath(target, key.path, parameters, root);
    const value = scope.value(field);
    const sorted = valueKindOf(field) === 'text' ? `lower(${value})` : value;
    return key.descending ? `${sorted} DESC NULLS LAST` : `${sorted} ASC NULLS FIRST`;
  });
  if (!order.keys.some((key) => key.path === 'Id')) terms.push(`${alias}.id ASC`);
  return terms.join(', ');
}
