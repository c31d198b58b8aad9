/**
 * The `sortBy` parameter: field paths (`Name`, `-CreatedDate`, `Account.Name`), comma-separated or as a
 * list, at most five; a leading `-` sorts descending. The records' Id always ends the order, ascending, so
 * that pages never overlap or skip records that tie; the platform echoes it (`Name,Id`, `-CreatedDate,Id`).
 * Nulls sort as in SOQL: first ascending, last descending. Text sorts without regard to case.
 */
import { illegalValue, notSortable } from './errors.ts';
import { isSortable, resolvePath, rootScope, valueKindOf, type ValueKind } from './fields.ts';
import { allOf, anyOf, SqlParameters, type SqlType } from './sql.ts';
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

/** One term of an order as SQL: the value sorted by, its direction, and the type of a value compared with it. */
export interface OrderTerm {
  value: string;
  descending: boolean;
  type: SqlType;
  /** The Id tie-break, never null: written plain ASC, as the derived indexes have it. */
  tieBreak?: true;
}

const TYPE_BY_KIND: Record<ValueKind, SqlType> = {
  text: 'text',
  id: 'text',
  multipicklist: 'text',
  number: 'numeric',
  boolean: 'boolean',
  date: 'date',
  datetime: 'timestamptz',
};

/** The terms of a checked order (the SQL of ORDER BY and of keyset positions) for the queried object's row named alias, the Id tie-break last. */
export function orderTerms(
  order: SortOrder,
  target: QueryTarget,
  alias: string,
  parameters: SqlParameters,
): OrderTerm[] {
  const root = rootScope(target.object, alias);
  const terms = order.keys.map((key): OrderTerm => {
    const { scope, field } = resolvePath(target, key.path, parameters, root);
    const value = scope.value(field);
    const kind = valueKindOf(field) ?? 'text';
    return { value: kind === 'text' ? `lower(${value})` : value, descending: key.descending, type: TYPE_BY_KIND[kind] };
  });
  if (!order.keys.some((key) => key.path === 'Id'))
    terms.push({ value: `${alias}.id`, descending: false, type: 'text', tieBreak: true });
  return terms;
}

/** The ORDER BY list (without the keywords) of terms: nulls first ascending, last descending. */
export const orderByList = (terms: OrderTerm[]) =>
  terms
    .map((term) => `${term.value} ${term.tieBreak ? 'ASC' : term.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`)
    .join(', ');

/** The ORDER BY list (without the keywords) of a checked order, for the queried object's row named alias. */
export function orderByClause(order: SortOrder, target: QueryTarget, alias: string, parameters: SqlParameters): string {
  return orderByList(orderTerms(order, target, alias, parameters));
}

/**
 * The rows that come after a position in an order (keyset paging): `after` holds the terms' values of the last
 * row read, as text (null for SQL null), in the terms' order, which must end with a unique term (the Id). The
 * first term is also bounded on its own, so that an index of the order can start the scan at the position
 * rather than at the first row.
 */
export function afterPosition(
  terms: OrderTerm[],
  after: readonly (string | null)[],
  parameters: SqlParameters,
): string {
  if (after.length !== terms.length) throw new Error(`A position of ${after.length} values for ${terms.length} terms`);
  const placeholders = after.map((value, i) => (value === null ? null : parameters.add(value, terms[i].type)));
  const equal = (i: number) =>
    placeholders[i] === null ? `${terms[i].value} IS NULL` : `${terms[i].value} = ${placeholders[i]}`;
  // Strictly after in the term's own order: nulls come first ascending and last descending.
  const beyond = (i: number): string | null => {
    const { value, descending } = terms[i];
    const placeholder = placeholders[i];
    if (placeholder === null) return descending ? null : `${value} IS NOT NULL`;
    return descending ? `(${value} < ${placeholder} OR ${value} IS NULL)` : `${value} > ${placeholder}`;
  };
  const branches: string[] = [];
  for (let i = 0; i < terms.length; i++) {
    const step = beyond(i);
    if (step === null) continue;
    branches.push(allOf([...Array.from({ length: i }, (_, j) => equal(j)), step]));
  }
  const [first] = terms;
  const bound =
    placeholders[0] === null
      ? first.descending
        ? `${first.value} IS NULL`
        : null
      : first.descending
        ? `(${first.value} <= ${placeholders[0]} OR ${first.value} IS NULL)`
        : `${first.value} >= ${placeholders[0]}`;
  return allOf([...(bound ? [bound] : []), anyOf(branches)]);
}
