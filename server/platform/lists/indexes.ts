/**
 * The indexes of the record table that the org's list views need, derived from their definitions rather
 * than written by hand for each: each is a partial index on the view's object whose expressions are exactly
 * those the query core writes (query/fields.ts valueExpression; text sorted and compared in lower case), so
 * that the planner can match them.
 *
 * - The view's order, ties broken by Id: its first page (and offsets up to 2000) are read from the index.
 * - Each filter every record must pass (ANDed at the top of the filter logic) with Equals, before the order:
 *   the same, within the filtered records. A `where` eq on that field in any list of the object sorted the
 *   same way uses it too.
 * - The owner before the order, for a view of the caller's own records (scope mine).
 * - Each field a view compares with less-than or greater-than, ties broken by Id: a range is read from it,
 *   and in the field's order (ascending directly, descending backwards with the ties sorted as they come).
 * - Each searchable column (the view's text columns) of a view that no Equals filter narrows, when trigram
 *   indexes can be had (PostgreSQL's pg_trgm): a searchTerm is a case-insensitive contains, which a b-tree
 *   cannot answer. (In a view an Equals filter narrows, the search reads the filter's records.)
 *
 * A value that the database computes from text with a stable cast (dates and date-times kept in `fields`)
 * cannot be indexed, nor can a parent's field (a subquery): such a view gets the indexes it can have. Pure.
 */
import { createHash } from 'node:crypto';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { SYSTEM_COLUMNS, valueExpression, valueKindOf } from '../query/fields.ts';
import { jsonKey } from '../query/sql.ts';
import type { ListView } from './definitions.ts';
import { requiredFilters, parseFilterLogic } from './filter-logic.ts';
import { fieldAtPath } from './filters.ts';

export interface IndexSpec {
  /** `list_view_` and a hash of the definition: the same definition always has the same name. */
  name: string;
  objectApiName: string;
  /** What follows `CREATE INDEX <name> ON record`. */
  definition: string;
}

/** Where trigram indexes come from: the operator class, schema-qualified; null when there are none. */
export interface IndexOptions {
  trigramOperatorClass: string | null;
}

const RANGE_OPERATORS = new Set(['LessThan', 'GreaterThan', 'LessOrEqual', 'GreaterOrEqual']);
const ROW = 'record';

/** A root field's value as the query core reads it, when an index can hold it; null otherwise. */
function indexableValue(field: FieldDefinition): string | null {
  const kind = valueKindOf(field);
  if (!kind || kind === 'multipicklist') return null;
  // A date kept as text is cast to date with a stable function, which no index expression may use.
  if ((kind === 'date' || kind === 'datetime') && !SYSTEM_COLUMNS[field.apiName]) return null;
  const value = valueExpression(field, ROW);
  return kind === 'text' ? `lower(${value})` : value;
}

/** The field a path names, when it is a field of the object itself (not of a parent). */
function rootField(org: OrgDescribe, object: DescribedObject, path: string): FieldDefinition | undefined {
  const resolved = fieldAtPath(org, object, path);
  return resolved && resolved.names.length === 1 ? resolved.field : undefined;
}

function spec(object: DescribedObject, body: string): IndexSpec {
  const definition = `${body} WHERE object_api_name = ${jsonKey(object.apiName)}`;
  const name = `list_view_${createHash('sha256').update(definition).digest('hex').slice(0, 24)}`;
  return { name, objectApiName: object.apiName, definition };
}

/** A b-tree index of the object's records on the elements, named like every index this module derives. */
export const btree = (object: DescribedObject, elements: string[]) => spec(object, `(${elements.join(', ')})`);

/** The elements of an order (a view's, a related list's) with the Id tie-break; null when some key cannot be indexed. */
export function orderElements(
  org: OrgDescribe,
  object: DescribedObject,
  order: { fieldApiName: string; isAscending: boolean }[],
): string[] | null {
  const elements: string[] = [];
  for (const key of order) {
    const field = rootField(org, object, key.fieldApiName);
    const value = field && indexableValue(field);
    if (!value) return null;
    elements.push(key.isAscending ? `(${value}) NULLS FIRST` : `(${value}) DESC NULLS LAST`);
  }
  return [...elements, `(${ROW}.id)`];
}

/** The indexes one list view of an object needs. */
export function listViewIndexes(
  org: OrgDescribe,
  object: DescribedObject,
  view: ListView,
  options: IndexOptions,
): IndexSpec[] {
  const { definition } = view;
  const specs: IndexSpec[] = [];
  const order = orderElements(org, object, view.definition.orderedByInfo);
  const ordered = order !== null && order.length > 1;
  if (ordered) specs.push(btree(object, order));
  const logic = parseFilterLogic(definition.filterLogicString, definition.filteredByInfo.length);
  let narrowed = false;
  for (const number of requiredFilters(logic)) {
    const filter = definition.filteredByInfo[number - 1];
    const field = filter.operator === 'Equals' ? rootField(org, object, filter.fieldApiName) : undefined;
    const value = field && indexableValue(field);
    if (value) specs.push(btree(object, [`(${value})`, ...(order ?? [`(${ROW}.id)`])]));
    narrowed ||= Boolean(value);
  }
  for (const filter of definition.filteredByInfo) {
    const field = RANGE_OPERATORS.has(filter.operator) ? rootField(org, object, filter.fieldApiName) : undefined;
    const value = field && indexableValue(field);
    if (value) specs.push(btree(object, [`(${value}) NULLS FIRST`, `(${ROW}.id)`]));
  }
  if (definition.scope === 'mine') {
    // ownedBy (query/target.ts): the owner, or the creator; each side from its own index.
    const owner = object.fieldsByName.get('OwnerId');
    if (owner) specs.push(btree(object, [`(${valueExpression(owner, ROW)})`, ...(order ?? [`(${ROW}.id)`])]));
    specs.push(btree(object, [`(${ROW}.created_by_id)`]));
  }
  if (options.trigramOperatorClass && !narrowed) {
    for (const path of definition.displayColumns) {
      const field = rootField(org, object, path);
      const kind = field && valueKindOf(field);
      if (field && (kind === 'text' || kind === 'multipicklist'))
        specs.push(spec(object, `USING gin ((${valueExpression(field, ROW)}) ${options.trigramOperatorClass})`));
    }
  }
  return specs;
}

/** Every index the org's list views need, each once, in a stable order. */
export function orgListViewIndexes(org: OrgDescribe, views: ListView[], options: IndexOptions): IndexSpec[] {
  const byName = new Map<string, IndexSpec>();
  for (const view of views) {
    const object = org.objects.get(view.objectApiName);
    if (!object || view.ownerId !== null) continue;
    for (const index of listViewIndexes(org, object, view, options)) byName.set(index.name, index);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
