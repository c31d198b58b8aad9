/**
 * A list view's filters as its filter form edits them: one row per filter (a field, an operator, the values as
 * typed, commas between several), read from the list info's filteredByInfo and built into the
 * filteredByInfo of createListInfo and updateListInfoByName. Which fields may be filtered and by which operators
 * is the list object info's to say (getListObjectInfo: each column's filterable and supportedFilterOperators);
 * the checks here only spare the user a round trip for what the server would refuse. Pure functions.
 */
import type { Schemas } from '../../../../generated/types';

export type FilterOperator = Schemas['ListFilterByInfoInputRepresentation']['operator'];
export type FilterInput = Schemas['ListFilterByInfoInputRepresentation'];
export type ListObjectColumn = Pick<
  Schemas['ListObjectColumnRepresentation'],
  | 'fieldApiName'
  | 'label'
  | 'dataType'
  | 'filterable'
  | 'supportedFilterOperators'
  | 'defaultFilterOperator'
  | 'picklistValues'
>;

/** A filter as the form holds it: the values as typed. */
export interface FilterRow {
  fieldApiName: string;
  operator: FilterOperator;
  value: string;
}

/** The operators in the platform's words, as its filter panel shows them. */
export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  Equals: 'equals',
  NotEqual: 'not equal to',
  LessThan: 'less than',
  GreaterThan: 'greater than',
  LessOrEqual: 'less or equal',
  GreaterOrEqual: 'greater or equal',
  Contains: 'contains',
  NotContain: 'does not contain',
  StartsWith: 'starts with',
  Includes: 'includes',
  Excludes: 'excludes',
  Within: 'within',
};

/** Operators that compare with one value only: an order has one bound. */
const ONE_VALUE: FilterOperator[] = ['LessThan', 'GreaterThan', 'LessOrEqual', 'GreaterOrEqual'];
/** Operators for which no value means the field is empty. */
const EMPTY_ALLOWED: FilterOperator[] = ['Equals', 'NotEqual'];
const NUMBER_TYPES = ['Currency', 'Double', 'Int', 'Long', 'Percent'];

/** The fields a filter may name: the list object info's filterable columns, by label. */
export function filterableColumns(columns: readonly ListObjectColumn[]): ListObjectColumn[] {
  return columns
    .filter((column) => column.filterable && column.supportedFilterOperators.length > 0)
    .sort((a, b) => a.label.localeCompare(b.label, 'en'));
}

/** The operators a filter on the column may use, as the list object info lists them. */
export function operatorsFor(column: ListObjectColumn | undefined): FilterOperator[] {
  return column?.filterable ? column.supportedFilterOperators : [];
}

/** A new filter on a column: its default operator, no value. */
export function newFilterRow(column: ListObjectColumn): FilterRow {
  const operators = operatorsFor(column);
  const operator =
    column.defaultFilterOperator && operators.includes(column.defaultFilterOperator)
      ? column.defaultFilterOperator
      : operators[0];
  return { fieldApiName: column.fieldApiName, operator, value: '' };
}

/** The row after its field changes: the same operator where the new field takes it, else its default; no value. */
export function withField(row: FilterRow, column: ListObjectColumn): FilterRow {
  const fresh = newFilterRow(column);
  return operatorsFor(column).includes(row.operator) ? { ...fresh, operator: row.operator } : fresh;
}

/** The rows of a list view's filters. */
export function rowsOf(
  filters: readonly { fieldApiName: string; operator: FilterOperator; operandLabels: string[] }[],
) {
  return filters.map((filter): FilterRow => ({
    fieldApiName: filter.fieldApiName,
    operator: filter.operator,
    value: filter.operandLabels.join(', '),
  }));
}

/** The values typed: commas between several, blanks around them dropped. */
export function operandsOf(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** What is wrong with a row, in words for the user; undefined when nothing is. */
export function rowProblem(row: FilterRow, column: ListObjectColumn | undefined): string | undefined {
  if (!column || !column.filterable) return 'Choose a field to filter by.';
  if (!operatorsFor(column).includes(row.operator))
    return `${column.label} cannot be filtered with “${OPERATOR_LABELS[row.operator]}”.`;
  const operands = operandsOf(row.value);
  if (operands.length === 0 && !EMPTY_ALLOWED.includes(row.operator)) return 'Enter a value.';
  if (operands.length > 1 && ONE_VALUE.includes(row.operator)) return 'Enter one value only.';
  if (NUMBER_TYPES.includes(column.dataType) && operands.some((operand) => !Number.isFinite(Number(operand))))
    return `${column.label} takes numbers only.`;
  if (column.dataType === 'Boolean' && operands.some((operand) => !/^(true|false)$/i.test(operand)))
    return `${column.label} takes true or false.`;
  return undefined;
}

/**
 * The filteredByInfo of the rows, or each row's problem (by the row's index) when any has one: the filters
 * are saved together or not at all.
 */
export function buildFilters(
  rows: readonly FilterRow[],
  columns: readonly ListObjectColumn[],
): { filters: FilterInput[] } | { problems: Record<number, string> } {
  const byName = new Map(columns.map((column) => [column.fieldApiName, column]));
  const problems: Record<number, string> = {};
  rows.forEach((row, index) => {
    const problem = rowProblem(row, byName.get(row.fieldApiName));
    if (problem) problems[index] = problem;
  });
  if (Object.keys(problems).length > 0) return { problems };
  return {
    filters: rows.map((row) => ({
      fieldApiName: row.fieldApiName,
      operator: row.operator,
      operandLabels: operandsOf(row.value),
    })),
  };
}

/** A filter in words, as the list's summary says it: "City equals Paris, Lyon". */
export function filterText(
  filter: { fieldApiName: string; operator: FilterOperator; operandLabels: string[] },
  label: string,
): string {
  const values = filter.operandLabels.length > 0 ? filter.operandLabels.join(', ') : '(empty)';
  return `${label} ${OPERATOR_LABELS[filter.operator]} ${values}`;
}

/** An API name made from a label, as the server makes one: letters, digits and single underscores, a letter first. */
export function apiNameOf(label: string): string {
  const name = label
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  if (name === '') return '';
  return /^[A-Za-z]/.test(name) ? name : `X${name}`.slice(0, 80);
}
