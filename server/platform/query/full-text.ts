/**
 * The database's own text search, for search and lookups (migration 013): full-text matching and ranking
 * over the records' search documents, and the name prefix of type-ahead. Built on the query core: a full-text
 * search is a JoinedSource of buildListQuery (select.ts), a name prefix one of its conditions.
 */
import type { FieldDefinition } from '../core/definitions.ts';
import { rootScope, valueKindOf } from './fields.ts';
import { MAX_OFFSET } from './page-token.ts';
import type { JoinedSource } from './select.ts';
import type { RowCondition } from './sql.ts';
import type { QueryTarget } from './target.ts';

/**
 * The full-text form of a search (search and lookups, migration 013): a record matches when each word of the
 * term begins a word of one of its searchable fields, and ranks by how well it matches (name fields weigh
 * more). The stored search document covers every text field of the object; when the caller may not read
 * some of them, the match and the rank are taken again over the fields it may read, so that a record is
 * never found, nor ranked higher, by a value the caller may not see. The term only ever travels as a
 * parameter, and the database makes its words (record_search_query), exactly as it makes the documents'.
 */
export function fullTextSource(term: string, target: QueryTarget): JoinedSource {
  const all = target.object.fields.filter((field) => field.apiName !== 'Id' && isSearchableKind(field));
  const readable = all.filter((field) => target.access.canReadField(target.object, field));
  return {
    join: (alias, parameters) => {
      const query = `record_search_query(${parameters.add(term, 'text')})`;
      const root = rootScope(target.object, alias);
      const document =
        readable.length === all.length
          ? `${alias}.search_document`
          : `to_tsvector('simple', concat_ws(' ', ${readable.map((field) => root.value(field)).join(', ') || "''"}))`;
      const recheck = document === `${alias}.search_document` ? '' : ` AND ${document} @@ ${query}`;
      return `JOIN LATERAL (SELECT ts_rank(${document}, ${query}) AS rank) ${RANK_ALIAS} ON ${alias}.search_document @@ ${query}${recheck}`;
    },
    orderBy: `${RANK_ALIAS}.rank DESC`,
    candidates: { limit: RANKED_MATCHES, key: `${RANK_ALIAS}.rank`, descending: true },
  };
}

/** The most matches a search ranks: the platform's 2,000 records and one largest page beyond them. */
const RANKED_MATCHES = MAX_OFFSET + 100;

const RANK_ALIAS = 'search_rank';

const isSearchableKind = (field: FieldDefinition) =>
  valueKindOf(field) === 'text' || valueKindOf(field) === 'multipicklist';

/** The field a record is named by (nameField), else Name; undefined when the object has none. */
export function nameFieldOf(target: QueryTarget): FieldDefinition | undefined {
  return target.object.fields.find((field) => field.nameField) ?? target.object.fieldsByName.get('Name');
}

/**
 * Records whose name starts with the term, without regard to case (a lookup's type-ahead). The range on
 * the lower-cased name lets a b-tree of it (migration 013) answer; LIKE then states the rule exactly. A name
 * the caller may not read matches nothing.
 */
export function namePrefixCondition(term: string, target: QueryTarget): RowCondition {
  const name = nameFieldOf(target);
  return (alias, parameters) => {
    if (!name || !target.access.canReadField(target.object, name)) return 'FALSE';
    const prefix = term.trim().toLowerCase();
    const value = `lower(${rootScope(target.object, alias).value(name)})`;
    const escaped = prefix.replace(/[\\%_]/g, (char) => `\\${char}`);
    return `(${value} >= ${parameters.add(prefix, 'text')} AND ${value} < ${parameters.add(`${prefix}\u{10FFFF}`, 'text')} AND ${value} LIKE ${parameters.add(`${escaped}%`, 'text')})`;
  };
}
