/**
 * Keyword search (getKeywordSearchResults, getSearchResults): the records of an object whose searchable text
 * fields hold words beginning with each word of the term (the database's full-text search over the search
 * documents of migration 013), narrowed by field filters, best match first or in the order asked for, one
 * page at a time. Only records the caller may see are found and only fields it may read are matched, shown
 * or highlighted (query/full-text.ts fullTextSource, query/target.ts).
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import type { Principal } from '../core/principal.ts';
import { excerpt, illegalValue } from '../query/errors.ts';
import { pageTokens, splitLookahead } from '../query/page-token.ts';
import { fullTextSource } from '../query/full-text.ts';
import { buildListQuery } from '../query/select.ts';
import type { QueryTarget } from '../query/target.ts';
import { canSeeRecord } from '../records/access.ts';
import { parseFieldLists, selectFields } from '../records/field-paths.ts';
import { buildRecords } from '../records/rows.ts';
import type { RecordRow } from '../records/representation.ts';
import {
  checkDataCategories,
  checkedTerm,
  configurationObjects,
  filtersWhere,
  highlightInfo,
  objectSetup,
  readableFieldNames,
  searchTargetNamed,
} from './common.ts';

type SearchResultCollection = Schemas['SearchResultCollectionRepresentation'];
const SEARCH_PAGE_SIZE = 25;
const MIN_TERM_LENGTH = 2;

interface ObjectSearchOptions {
  filters?: Schemas['SearchFilterInputRepresentation'][];
  dataCategories?: Schemas['SearchDataCategoryInputRepresentation'][];
  pageSize?: number;
  pageToken?: string;
  sortBy?: string;
}

/** One page of an object's records that match the term: the checks, the query and the representation. */
async function searchOneObject(
  db: Queryable,
  principal: Principal,
  target: QueryTarget,
  term: string,
  options: ObjectSearchOptions,
  now: Date,
): Promise<SearchResultCollection> {
  const { object } = target;
  checkDataCategories(target, options.dataCategories);
  const shown = readableFieldNames(target, objectSetup(object).resultFields);
  const query = buildListQuery({
    target,
    now,
    where: null,
    viewFilter: filtersWhere(target, options.filters ?? []),
    sortBy: options.sortBy ?? null,
    source: fullTextSource(term, target),
    pageSize: options.pageSize ?? null,
    defaultPageSize: SEARCH_PAGE_SIZE,
    pageToken: options.pageToken ?? null,
  });
  const { rows } = await db.query<RecordRow>(query.rows.text, query.rows.values);
  const page = splitLookahead(rows, query.pageSize);
  const visible = page.rows.filter((row) => canSeeRecord(principal, object, row));
  const paths = parseFieldLists(
    [],
    ['Id', ...shown].map((name) => `${object.apiName}.${name}`),
  );
  const records = await buildRecords(db, principal, visible, selectFields(target.org, principal, object, paths));
  const tokens = pageTokens(query.offset, query.pageSize, page.hasMore);
  return {
    count: records.length,
    currentPageToken: tokens.currentPageToken,
    error: null,
    fields: shown.map((name) => `${object.apiName}.${name}`),
    nextPageToken: tokens.nextPageToken,
    objectApiName: object.apiName,
    pageSize: query.pageSize,
    previousPageToken: tokens.previousPageToken,
    records: records.map((record, index) => ({
      highlightInfo: highlightInfo(visible[index].fields, shown, term),
      record,
      searchInfo: { isPromoted: false, isSpellCorrected: false },
    })),
    sortBy: options.sortBy ?? null,
  };
}

/** getKeywordSearchResults: one object, with filters, order and paging. */
export async function keywordSearch(
  db: Queryable,
  principal: Principal,
  q: string,
  objectApiName: string,
  input: Schemas['KeywordSearchResultsInputRepresentation'],
  now: Date,
): Promise<Schemas['KeywordSearchResultsRepresentation']> {
  const term = checkedTerm(q, MIN_TERM_LENGTH) as string;
  if (input.configurationName !== undefined) configurationObjects(input.configurationName);
  const target = await searchTargetNamed(db, principal, objectApiName);
  const result = await searchOneObject(db, principal, target, term, input, now);
  return {
    configurationName: input.configurationName ?? null,
    keywordSearchResult: result,
    objectApiName: target.object.apiName,
    query: q,
  };
}

/**
 * getSearchResults: the first page of each object asked for (or of the configuration's objects the caller
 * may read), with each object's filters. An object named that the caller may not search fails the request;
 * so do filters for an object not searched.
 */
export async function searchResults(
  db: Queryable,
  principal: Principal,
  q: string,
  input: Schemas['SearchResultsSummaryInputRepresentation'],
  now: Date,
): Promise<Schemas['SearchResultsSummaryRepresentation']> {
  const term = checkedTerm(q, MIN_TERM_LENGTH) as string;
  const configured = configurationObjects(input.configurationName);
  const named = input.objectApiNames ?? [];
  const targets: QueryTarget[] = [];
  if (named.length > 0) {
    for (const name of named) {
      const target = await searchTargetNamed(db, principal, name);
      if (!targets.some((known) => known.object.apiName === target.object.apiName)) targets.push(target);
    }
  } else {
    for (const name of configured) {
      try {
        targets.push(await searchTargetNamed(db, principal, name));
      } catch {
        // An object of the configuration the caller may not read is simply not searched.
      }
    }
  }
  const options = input.searchObjectOptions ?? {};
  const byName = new Map(targets.map((target) => [target.object.apiName.toLowerCase(), target]));
  for (const name of Object.keys(options)) {
    if (!byName.has(name.toLowerCase()))
      throw illegalValue('searchObjectOptions', `${excerpt(name)} is not one of the objects searched`);
  }
  const results: SearchResultCollection[] = [];
  for (const target of targets) {
    const own =
      Object.entries(options).find(([name]) => name.toLowerCase() === target.object.apiName.toLowerCase())?.[1] ?? {};
    results.push(
      await searchOneObject(
        db,
        principal,
        target,
        term,
        { filters: own.filters, dataCategories: own.dataCategories },
        now,
      ),
    );
  }
  return {
    configurationName: input.configurationName ?? null,
    keywordSearchResults: { results },
    qnaResult: null,
    query: q,
  };
}
