/**
 * One page of an object's records as SQL: the records the caller may see, narrowed by the caller's own
 * conditions, the list view's filter, the request's `where` and `searchTerm`, in the requested order, and
 * the count of all of them. Pure: it returns statements, the caller runs them. The page statement reads one
 * row more than the page, so that whether a next page exists is known without counting (splitLookahead).
 */
import { RECORD_COLUMNS } from '../records/representation.ts';
import { parsePageSize, parsePageToken } from './page-token.ts';
import { searchTermCondition } from './search-term.ts';
import {
  afterPosition,
  orderByClause,
  orderByList,
  orderTerms,
  parseSortBy,
  type OrderTerm,
  type SortOrder,
} from './sort.ts';
import { SqlParameters, type RowCondition, type SqlQuery } from './sql.ts';
import type { QueryTarget } from './target.ts';
import { whereCondition, type WhereInput } from './where.ts';

/**
 * Records reached through another table, such as the caller's most-recently-used records: an inner join onto
 * the record row (only the records it reaches are listed), and the order it gives them, which is used when
 * neither sortBy nor defaultSortBy names a field.
 */
export interface JoinedSource {
  /** `JOIN <table> <alias> ON ...` onto the record row named `alias`, its values added to `parameters`. */
  join(alias: string, parameters: SqlParameters): string;
  /** ORDER BY terms (without the Id tie-break, which follows them). */
  orderBy: string;
  /**
   * When the source's order applies, order only the first `limit` matching records (as the database finds
   * them) rather than all: a search ranks at most that many matches, as the platform's search returns at
   * most 2,000 records, so that a term most records hold costs no more than a rare one. `key` is the value
   * the order sorts by (the rank).
   */
  candidates?: { limit: number; key: string; descending: boolean };
  /** The order's terms (without the Id tie-break), for keyset paging in the source's order. */
  keys?: OrderTerm[];
}

export interface ListQueryInput {
  target: QueryTarget;
  /** The clock of relative dates in filters. */
  now: Date;
  /**
   * Conditions of trusted code besides the caller's visibility (which comes from target.access): a related
   * list's parent, a lookup's filter ...
   */
  conditions?: RowCondition[];
  /** The list view's own filter, in the `where` form. */
  viewFilter?: WhereInput | null;
  where?: string | null;
  searchTerm?: string | null;
  /** The fields searchTerm looks in (a list view's columns); absent, every readable text field. */
  searchFields?: readonly string[];
  sortBy?: string | string[] | null;
  /** The order when sortBy names none (the list view's). */
  defaultSortBy?: string | string[];
  /** The records come through this join; its order applies when no sort names a field. */
  source?: JoinedSource;
  pageSize?: number | string | null;
  defaultPageSize: number;
  pageToken?: string | null;
  /**
   * Count at most this many records (a related list's maxCount, plus one to know whether there are more):
   * the count statement then reads no more rows than that, however many match.
   */
  countAtMost?: number;
  /**
   * Keyset paging rather than page tokens, for reading every record a chunk at a time (an export): the rows
   * after this position in the order (null: from the first), pageSize of them, each with its own position in
   * the columns ListQuery.positionColumns. Its cost does not grow with the position, as an offset's does.
   */
  keyset?: { after: readonly (string | null)[] | null };
}

export interface ListQuery {
  /** The page's record rows (RecordRow), one more than pageSize when records follow the page. */
  rows: SqlQuery;
  /** One row, `total`: how many records match in all. */
  count: SqlQuery;
  offset: number;
  pageSize: number;
  sort: SortOrder;
  /** Whether the rows are in the source's order (no sort named a field): the platform then echoes no sortBy. */
  sourceOrder: boolean;
  /** With keyset paging, the columns of each row that hold its position (text or null), in order. */
  positionColumns: string[];
}

const ALIAS = 'r';
const COLUMNS = RECORD_COLUMNS.split(',')
  .map((column) => `${ALIAS}.${column.trim()}`)
  .join(', ');

/** Checks the request's parameters (400 on the first that is wrong) and builds the page and count statements. */
export function buildListQuery(input: ListQueryInput): ListQuery {
  const { target } = input;
  const pageSize = parsePageSize(input.pageSize, input.defaultPageSize);
  const offset = parsePageToken(input.pageToken);
  const sort = parseSortBy(input.sortBy, target, input.defaultSortBy);

  const parameters = new SqlParameters();
  const join = input.source ? ` ${input.source.join(ALIAS, parameters)}` : '';
  const conditions = [`${ALIAS}.object_api_name = ${parameters.add(target.object.apiName, 'text')}`];
  const visibility = target.access.visibleRows(target.object);
  if (visibility) conditions.push(visibility(ALIAS, parameters));
  for (const condition of input.conditions ?? []) conditions.push(condition(ALIAS, parameters));
  if (input.viewFilter)
    conditions.push(whereCondition(input.viewFilter, target, ALIAS, parameters, input.now, 'filter'));
  if (input.where) conditions.push(whereCondition(input.where, target, ALIAS, parameters, input.now));
  const search = searchTermCondition(input.searchTerm, target, ALIAS, parameters, input.searchFields);
  if (search) conditions.push(search);

  const matching = `FROM record ${ALIAS}${join} WHERE ${conditions.join(' AND ')}`;
  // The count takes the values so far: the ORDER BY and paging placeholders come after and are not in its text.
  const capped = input.countAtMost === undefined ? null : Math.max(0, Math.floor(input.countAtMost));
  const count = {
    text:
      capped === null
        ? `SELECT count(*)::int AS total ${matching}`
        : `SELECT count(*)::int AS total FROM (SELECT 1 ${matching} LIMIT ${capped}) capped`,
    values: [...parameters.values],
  };
  const sourceOrder = input.source !== undefined && sort.keys.length === 0;
  if (input.keyset) return keysetQuery(input, input.keyset.after, { matching, parameters, count, pageSize, sort });
  const candidates = sourceOrder ? input.source!.candidates : undefined;
  if (candidates) {
    const inner = `SELECT ${COLUMNS}, ${candidates.key} AS source_key ${matching} LIMIT ${parameters.add(candidates.limit, 'int')}`;
    const limit = parameters.add(pageSize + 1, 'int');
    const skip = parameters.add(offset, 'int');
    const order = `${ALIAS}.source_key ${candidates.descending ? 'DESC' : 'ASC'}, ${ALIAS}.id ASC`;
    const rows = {
      text: `SELECT ${COLUMNS} FROM (${inner}) ${ALIAS} ORDER BY ${order} LIMIT ${limit} OFFSET ${skip}`,
      values: parameters.values,
    };
    return { rows, count, offset, pageSize, sort, sourceOrder, positionColumns: [] };
  }
  const order = sourceOrder
    ? `${input.source!.orderBy}, ${ALIAS}.id ASC`
    : orderByClause(sort, target, ALIAS, parameters);
  const limit = parameters.add(pageSize + 1, 'int');
  const skip = parameters.add(offset, 'int');
  const rows = {
    text: `SELECT ${COLUMNS} ${matching} ORDER BY ${order} LIMIT ${limit} OFFSET ${skip}`,
    values: parameters.values,
  };
  return { rows, count, offset, pageSize, sort, sourceOrder, positionColumns: [] };
}

/** The statement of a chunk of rows after a position, with the position of each row (buildListQuery's keyset). */
function keysetQuery(
  input: ListQueryInput,
  after: readonly (string | null)[] | null,
  built: { matching: string; parameters: SqlParameters; count: SqlQuery; pageSize: number; sort: SortOrder },
): ListQuery {
  const { matching, parameters, count, pageSize, sort } = built;
  const sourceOrder = input.source !== undefined && sort.keys.length === 0;
  let terms: OrderTerm[];
  let order: string;
  if (sourceOrder) {
    const keys = input.source!.keys;
    if (!keys) throw new Error('This source of records has no keys to page by');
    terms = [...keys, { value: `${ALIAS}.id`, descending: false, type: 'text', tieBreak: true }];
    order = `${input.source!.orderBy}, ${ALIAS}.id ASC`;
  } else {
    terms = orderTerms(sort, input.target, ALIAS, parameters);
    order = orderByList(terms);
  }
  const positionColumns = terms.map((_, i) => `position_${i}`);
  const positions = terms.map((term, i) => `(${term.value})::text AS ${positionColumns[i]}`).join(', ');
  const where = after ? ` AND ${afterPosition(terms, after, parameters)}` : '';
  const limit = parameters.add(pageSize, 'int');
  const rows = {
    text: `SELECT ${COLUMNS}, ${positions} ${matching}${where} ORDER BY ${order} LIMIT ${limit}`,
    values: parameters.values,
  };
  return { rows, count, offset: 0, pageSize, sort, sourceOrder, positionColumns };
}
