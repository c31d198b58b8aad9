/**
 * A list view's filters (filteredByInfo: field, operator, operand labels) and filter logic, in the `where`
 * form of the query core, so that a list view's own filter and a request's `where` go through one compiler,
 * with the same checks of fields, types and the caller's access. Which operators fit which fields is here
 * too: the list object info publishes it, and a filter that breaks it is refused. Pure functions.
 */
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { dateLiteralInterval } from '../query/date-literals.ts';
import { cut, invalidOperator } from '../query/errors.ts';
import { valueKindOf, type ValueKind } from '../query/fields.ts';
import { OPERATORS } from '../query/where-operators.ts';
import type { WhereObject, WhereValue } from '../query/where-parser.ts';
import { fieldNamed, invalidField, relationshipNamed } from '../records/field-paths.ts';
import type { FilterOperator, ListFilterDefinition } from './definitions.ts';
import { parseFilterLogic, type FilterLogic } from './filter-logic.ts';

const ORDERED: FilterOperator[] = ['Equals', 'NotEqual', 'LessThan', 'GreaterThan', 'LessOrEqual', 'GreaterOrEqual'];
const TEXT: FilterOperator[] = [...ORDERED, 'Contains', 'NotContain', 'StartsWith'];
const EQUALITY: FilterOperator[] = ['Equals', 'NotEqual'];

/** The operators a filter on a field may use; empty when the field cannot be filtered on at all. */
export function filterOperators(field: FieldDefinition): FilterOperator[] {
  const kind = valueKindOf(field);
  if (kind === 'text')
    return field.dataType === 'Picklist' || field.dataType === 'ComboBox'
      ? [...EQUALITY, 'Contains', 'NotContain', 'StartsWith']
      : TEXT;
  if (kind === 'number' || kind === 'date' || kind === 'datetime') return ORDERED;
  if (kind === 'multipicklist') return [...EQUALITY, 'Includes', 'Excludes'];
  if (kind === 'id' || kind === 'boolean') return EQUALITY;
  return [];
}

/** The operator a new filter on the field starts with. */
export const defaultFilterOperator = (field: FieldDefinition): FilterOperator | null =>
  filterOperators(field).length === 0 ? null : field.dataType === 'MultiPicklist' ? 'Includes' : 'Equals';

/** The field a path names from an object (relationships followed, any case), whoever asks; undefined when unknown. */
export function fieldAtPath(
  org: OrgDescribe,
  object: DescribedObject,
  path: string,
): { field: FieldDefinition; names: string[]; object: DescribedObject } | undefined {
  let names = path.split('.');
  if (
    names.length > 1 &&
    names[0].toLowerCase() === object.apiName.toLowerCase() &&
    !relationshipNamed(object, names[0])
  )
    names = names.slice(1);
  let current = object;
  const spelled: string[] = [];
  for (const name of names.slice(0, -1)) {
    const reference = relationshipNamed(current, name);
    const parent = reference ? org.objects.get(reference.referenceTo?.[0] ?? '') : undefined;
    if (!reference || !parent) return undefined;
    spelled.push(reference.relationshipName as string);
    current = parent;
  }
  const field = fieldNamed(current, names[names.length - 1]);
  return field ? { field, names: [...spelled, field.apiName], object: current } : undefined;
}

/** A picklist value given by its label or its value, as the value (labels differ from values on a few picklists). */
function picklistValue(field: FieldDefinition, operand: string): string {
  const source = field.picklist;
  if (!source || !('values' in source)) return operand;
  const lower = operand.toLowerCase();
  for (const entry of source.values) {
    if (typeof entry === 'string') continue;
    if (entry.value.toLowerCase() === lower) return entry.value;
    if (entry.label?.toLowerCase() === lower) return entry.value;
  }
  return operand;
}

/** An operand label as the `where` value of a field of this kind. */
function operandValue(field: FieldDefinition, kind: ValueKind, operand: string, path: string): WhereValue {
  switch (kind) {
    case 'number': {
      const number = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(operand) ? Number(operand) : NaN;
      if (!Number.isFinite(number))
        throw invalidOperator(
          `Value ${JSON.stringify(cut(operand))} for field '${path}' of type ${field.dataType} must be a number`,
        );
      return number;
    }
    case 'boolean': {
      const lower = operand.trim().toLowerCase();
      if (lower !== 'true' && lower !== 'false')
        throw invalidOperator(
          `Value ${JSON.stringify(cut(operand))} for field '${path}' of type ${field.dataType} must be true or false`,
        );
      return lower === 'true';
    }
    case 'date':
    case 'datetime':
      // A relative date (TODAY, LAST_N_DAYS:7) or a date; the compiler checks the rest.
      return dateLiteralInterval(operand.trim(), new Date(0)) ? { literal: operand.trim() } : { value: operand.trim() };
    default:
      return field.dataType === 'Picklist' ? picklistValue(field, operand) : operand;
  }
}

/** A LIKE pattern that finds `text` as it is (its % _ and \ escaped). */
const likeText = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** `{ Owner: { Name: condition } }` for the path Owner.Name. */
function atPath(names: string[], condition: WhereObject): WhereObject {
  return names
    .slice(0, -1)
    .reduceRight<WhereObject>((inner, name) => ({ [name]: inner }), { [names[names.length - 1]]: condition });
}

/** One filter as a `where` object. Unknown fields fail as unknown columns; operators must fit the field. */
export function filterCondition(org: OrgDescribe, object: DescribedObject, filter: ListFilterDefinition): WhereObject {
  const resolved = fieldAtPath(org, object, filter.fieldApiName);
  if (!resolved) throw invalidField(object.apiName, cut(filter.fieldApiName));
  const { field, names } = resolved;
  const path = names.join('.');
  const kind = valueKindOf(field);
  if (!kind || !filterOperators(field).includes(filter.operator)) {
    throw invalidOperator(`Operator ${filter.operator} can not be used on field '${path}' of type ${field.dataType}`);
  }
  const operands = filter.operandLabels;
  const values = () => operands.map((operand) => operandValue(field, kind, operand, path));
  const single = (): WhereValue => {
    if (operands.length !== 1)
      throw invalidOperator(
        `Operator ${filter.operator} on field '${path}' takes exactly one value, not ${operands.length}`,
      );
    return values()[0];
  };
  const some = (): string[] => {
    if (operands.length === 0)
      throw invalidOperator(`Operator ${filter.operator} on field '${path}' takes at least one value`);
    return operands;
  };
  const each = (patterns: string[]) => patterns.map((pattern) => atPath(names, { like: pattern }));
  // Several values of Equals are ORed (in), of NotEqual ANDed (nin); fields without in (checkboxes, multi-select
  // picklists) take one comparison per value.
  const listed = OPERATORS[kind].includes('in');
  switch (filter.operator) {
    case 'Equals':
      // No value: the field is empty.
      if (operands.length <= 1) return atPath(names, { eq: operands.length === 0 ? null : values()[0] });
      return listed ? atPath(names, { in: values() }) : { or: values().map((value) => atPath(names, { eq: value })) };
    case 'NotEqual':
      if (operands.length <= 1) return atPath(names, { ne: operands.length === 0 ? null : values()[0] });
      return listed ? atPath(names, { nin: values() }) : { and: values().map((value) => atPath(names, { ne: value })) };
    case 'LessThan':
      return atPath(names, { lt: single() });
    case 'GreaterThan':
      return atPath(names, { gt: single() });
    case 'LessOrEqual':
      return atPath(names, { lte: single() });
    case 'GreaterOrEqual':
      return atPath(names, { gte: single() });
    case 'Contains':
      return { or: each(some().map((text) => `%${likeText(text)}%`)) };
    case 'NotContain':
      return { not: { or: each(some().map((text) => `%${likeText(text)}%`)) } };
    case 'StartsWith':
      return { or: each(some().map((text) => `${likeText(text)}%`)) };
    case 'Includes':
      return atPath(names, { includes: some() });
    case 'Excludes':
      return atPath(names, { excludes: some() });
    default:
      throw invalidOperator(`Operator ${filter.operator} is not supported on field '${path}'`);
  }
}

/** The filter logic applied to the filters' conditions. */
function combine(logic: FilterLogic, conditions: WhereObject[]): WhereObject {
  if ('filter' in logic) return conditions[logic.filter - 1];
  if ('not' in logic) return { not: combine(logic.not, conditions) };
  if ('and' in logic) return { and: logic.and.map((part) => combine(part, conditions)) };
  return { or: logic.or.map((part) => combine(part, conditions)) };
}

/** A list view's filters combined by its logic, as one `where` object; null when it has no filters. */
export function listViewWhere(
  org: OrgDescribe,
  object: DescribedObject,
  filters: ListFilterDefinition[],
  filterLogicString: string | null,
): WhereObject | null {
  const logic = parseFilterLogic(filterLogicString, filters.length);
  if (filters.length === 0) return null;
  return combine(
    logic,
    filters.map((filter) => filterCondition(org, object, filter)),
  );
}
