/**
 * One operator of a `where` filter on one field, as an SQL condition. A condition is TRUE exactly for the
 * records it matches; it may be NULL rather than FALSE for a record it does not match (a field without a
 * value), which a WHERE clause, AND and OR treat alike. Every negation (`ne`, `nin`, `excludes`, and `not`
 * in where.ts) tests its condition IS NOT TRUE, so that it is a true complement. The positive comparisons
 * stay plain so that the database can answer them from an index (an IS TRUE around them would hide the
 * comparison from the planner). Null is handled as SOQL does: `ne` and `nin` match records without a value,
 * the ordering operators never do, `eq: null` finds empty fields. Text compares without regard to case; the
 * value always travels as a parameter.
 */
import { toId18 } from '../core/ids.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import {
  dateLiteralInterval,
  MAX_RELATIVE_DAYS,
  lastNDays,
  nextDay,
  nextNDays,
  type DayInterval,
} from './date-literals.ts';
import { excerpt, illegalValue, invalidOperator } from './errors.ts';
import type { ValueKind } from './fields.ts';
import { anyOf, type SqlParameters, type SqlType } from './sql.ts';
import { EnumSymbol, isWhereObject, type WhereValue } from './where-parser.ts';

const ORDERING = ['lt', 'lte', 'gt', 'gte'] as const;

/** The operators each kind of field takes. */
export const OPERATORS: Readonly<Record<ValueKind, readonly string[]>> = {
  text: ['eq', 'ne', ...ORDERING, 'like', 'in', 'nin'],
  id: ['eq', 'ne', 'in', 'nin'],
  number: ['eq', 'ne', ...ORDERING, 'in', 'nin'],
  boolean: ['eq', 'ne'],
  date: ['eq', 'ne', ...ORDERING, 'in', 'nin'],
  datetime: ['eq', 'ne', ...ORDERING, 'in', 'nin'],
  multipicklist: ['eq', 'ne', 'includes', 'excludes'],
};

const ALL_OPERATORS = new Set(Object.values(OPERATORS).flat());

/** Longest list an `in`, `nin`, `includes` or `excludes` takes. */
const MAX_LIST_VALUES = 1000;

interface FilteredField {
  field: FieldDefinition;
  kind: ValueKind;
  /** The field's path as written in messages (`Account.Name`). */
  path: string;
  /** The field's value in SQL, typed by its kind. */
  sql: string;
}

interface OperatorContext {
  parameters: SqlParameters;
  now: Date;
}

const SQL_COMPARISON = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/** A condition that matches: TRUE for the records it holds for, FALSE or NULL for the others. */
const isTrue = (condition: string) => `(${condition})`;
/** Its complement: TRUE where the condition is FALSE or NULL. */
export const isNotTrue = (condition: string) => `((${condition}) IS NOT TRUE)`;

function wrongValue(target: FilteredField, value: WhereValue, expected: string): never {
  const shown = value instanceof EnumSymbol ? value.name : excerpt(value);
  throw invalidOperator(
    `Value ${shown} for field '${target.path}' of type ${target.field.dataType} must be ${expected}`,
  );
}

function listOf(target: FilteredField, operator: string, value: WhereValue): WhereValue[] {
  if (!Array.isArray(value))
    throw invalidOperator(`Operator '${operator}' on field '${target.path}' takes a list of values`);
  if (value.length > MAX_LIST_VALUES)
    throw illegalValue('where', `a list of more than ${MAX_LIST_VALUES} values for field '${target.path}'`);
  return value;
}

/**
 * A SOQL LIKE pattern (% and _ wildcards, backslash escapes) as a PostgreSQL one: the same except that a
 * trailing lone backslash, which PostgreSQL rejects, stands for itself.
 */
export function likePattern(pattern: string): string {
  const trailingBackslashes = pattern.length - pattern.replace(/\\+$/, '').length;
  return trailingBackslashes % 2 === 1 ? `${pattern}\\` : pattern;
}

/** The SQL condition of `operator: value` on a field. */
export function operatorCondition(
  target: FilteredField,
  operator: string,
  value: WhereValue,
  context: OperatorContext,
): string {
  if (!ALL_OPERATORS.has(operator))
    throw invalidOperator(`Unknown operator ${excerpt(operator)} on field '${target.path}'`);
  if (!OPERATORS[target.kind].includes(operator)) {
    throw invalidOperator(
      `Operator '${operator}' can not be used on field '${target.path}' of type ${target.field.dataType}`,
    );
  }
  if (operator === 'in' || operator === 'nin') {
    const matches = inCondition(target, listOf(target, operator, value), context);
    return operator === 'in' ? matches : isNotTrue(matches);
  }
  if (operator === 'includes' || operator === 'excludes') {
    const values = typeof value === 'string' ? [value] : listOf(target, operator, value);
    const matches = anyOf(
      values.map((entry) =>
        typeof entry === 'string' ? containsAll(target, entry, context) : wrongValue(target, entry, 'a string'),
      ),
    );
    return operator === 'includes' ? matches : isNotTrue(matches);
  }
  if (operator === 'like') {
    if (typeof value !== 'string') wrongValue(target, value, 'a string pattern');
    return isTrue(`${target.sql} ILIKE ${context.parameters.add(likePattern(value), 'text')}`);
  }
  return comparison(target, operator as 'eq' | 'ne' | (typeof ORDERING)[number], value, context);
}

function comparison(
  target: FilteredField,
  operator: 'eq' | 'ne' | (typeof ORDERING)[number],
  value: WhereValue,
  context: OperatorContext,
): string {
  const { kind, sql } = target;
  if (value === null || (value === '' && (kind === 'text' || kind === 'multipicklist'))) {
    if (operator !== 'eq' && operator !== 'ne') wrongValue(target, value, 'a value, not null or empty');
    if (kind === 'boolean') wrongValue(target, value, 'true or false');
    // The platform stores an empty text as null: both are "no value".
    const empty = kind === 'text' || kind === 'multipicklist' ? `(coalesce(${sql}, '') = '')` : `(${sql} IS NULL)`;
    return operator === 'eq' ? empty : `(NOT ${empty})`;
  }
  if (kind === 'date' || kind === 'datetime')
    return dateComparison(target, operator, dateOperand(target, value, context.now), context);
  if (kind === 'multipicklist') {
    const equal = sameValues(
      target,
      typeof value === 'string' ? value : wrongValue(target, value, 'a string'),
      context,
    );
    return operator === 'eq' ? isTrue(equal) : isNotTrue(equal);
  }
  const [left, right] = operands(target, value, context);
  if (operator === 'ne') return isNotTrue(`${left} = ${right}`);
  return isTrue(`${left} ${SQL_COMPARISON[operator]} ${right}`);
}

/** Both sides of a comparison of a text, id, number or boolean field: text compares in lower case. */
function operands(target: FilteredField, value: WhereValue, context: OperatorContext): [string, string] {
  const { parameters } = context;
  switch (target.kind) {
    case 'text':
      if (typeof value !== 'string') wrongValue(target, value, 'a string');
      return [`lower(${target.sql})`, `lower(${parameters.add(value, 'text')})`];
    case 'id':
      return [target.sql, parameters.add(idValue(target, value), 'text')];
    case 'number':
      if (typeof value !== 'number') wrongValue(target, value, 'a number');
      return [target.sql, parameters.add(value, 'numeric')];
    default:
      if (typeof value !== 'boolean') wrongValue(target, value, 'true or false');
      return [target.sql, parameters.add(value, 'boolean')];
  }
}

function idValue(target: FilteredField, value: WhereValue): string {
  const id = typeof value === 'string' ? toId18(value) : null;
  if (!id) throw invalidOperator(`Invalid ID value ${excerpt(value)} for field '${target.path}'`);
  return id;
}

function inCondition(target: FilteredField, values: WhereValue[], context: OperatorContext): string {
  const textual = target.kind === 'text' || target.kind === 'multipicklist';
  const present = values.filter((value) => value !== null && !(textual && value === ''));
  const conditions: string[] = [];
  if (present.length < values.length) conditions.push(comparison(target, 'eq', null, context));
  if (present.length === 0) return anyOf(conditions);
  const { parameters } = context;
  switch (target.kind) {
    case 'text': {
      const texts = present.map((value) => (typeof value === 'string' ? value : wrongValue(target, value, 'a string')));
      conditions.push(
        isTrue(`lower(${target.sql}) IN (SELECT lower(v) FROM unnest(${parameters.add(texts, 'text[]')}) AS v)`),
      );
      break;
    }
    case 'id':
      conditions.push(
        isTrue(
          `${target.sql} = ANY(${parameters.add(
            present.map((value) => idValue(target, value)),
            'text[]',
          )})`,
        ),
      );
      break;
    case 'number': {
      const numbers = present.map((value) =>
        typeof value === 'number' ? value : wrongValue(target, value, 'a number'),
      );
      conditions.push(isTrue(`${target.sql} = ANY(${parameters.add(numbers, 'numeric[]')})`));
      break;
    }
    default:
      // Dates: each value may be a day, an instant or a relative range, so each is its own comparison.
      for (const value of present)
        conditions.push(dateComparison(target, 'eq', dateOperand(target, value, context.now), context));
  }
  return anyOf(conditions);
}

/** A multi-select value holds every value of `wanted` (`A;B` wants both). */
function containsAll(target: FilteredField, wanted: string, context: OperatorContext): string {
  return isTrue(
    `string_to_array(lower(${target.sql}), ';') @> string_to_array(lower(${context.parameters.add(wanted, 'text')}), ';')`,
  );
}

/** A multi-select value holds exactly the values of `wanted`, in any order. */
function sameValues(target: FilteredField, wanted: string, context: OperatorContext): string {
  const stored = `string_to_array(lower(${target.sql}), ';')`;
  const given = `string_to_array(lower(${context.parameters.add(wanted, 'text')}), ';')`;
  return `${stored} @> ${given} AND ${stored} <@ ${given}`;
}

/** A date operand: one instant or day, or a span of days (TODAY, a date-only value on a date-time ...). */
type DateOperand = { point: string } | { span: DayInterval };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

const isRealDate = (text: string) =>
  DATE.test(text) && new Date(`${text}T00:00:00.000Z`).toISOString().slice(0, 10) === text;

/**
 * Reads the forms a date value takes: `"2024-01-01"`, `{ value: "2024-01-01" }`, `{ literal: TODAY }`
 * (or `"LAST_N_DAYS:7"`) and `{ range: { last_n_days: 7 } }` / `next_n_days`.
 */
function dateOperand(target: FilteredField, value: WhereValue, now: Date): DateOperand {
  const expected = 'a date (YYYY-MM-DD), a date-time, { value }, { literal } or { range }';
  if (typeof value === 'string') return dateText(target, value, expected);
  if (!isWhereObject(value)) wrongValue(target, value, expected);
  const keys = Object.keys(value);
  if (keys.length !== 1) wrongValue(target, value, expected);
  const inner = value[keys[0]];
  if (keys[0] === 'value' && typeof inner === 'string') return dateText(target, inner, expected);
  if (keys[0] === 'literal' && (typeof inner === 'string' || inner instanceof EnumSymbol)) {
    const name = typeof inner === 'string' ? inner : inner.name;
    const span = dateLiteralInterval(name, now);
    if (!span) throw invalidOperator(`Unknown date literal ${excerpt(name)} for field '${target.path}'`);
    return { span };
  }
  if (keys[0] === 'range' && isWhereObject(inner)) {
    const [unit, ...others] = Object.keys(inner);
    const n = inner[unit];
    const valid =
      others.length === 0 &&
      (unit === 'last_n_days' || unit === 'next_n_days') &&
      typeof n === 'number' &&
      Number.isInteger(n) &&
      n >= 0 &&
      n <= MAX_RELATIVE_DAYS;
    if (!valid)
      throw invalidOperator(
        `Date range ${excerpt(inner)} for field '${target.path}' must be { last_n_days: n } or { next_n_days: n } with n from 0 to ${MAX_RELATIVE_DAYS}`,
      );
    return { span: unit === 'last_n_days' ? lastNDays(now, n as number) : nextNDays(now, n as number) };
  }
  return wrongValue(target, value, expected);
}

function dateText(target: FilteredField, text: string, expected: string): DateOperand {
  if (isRealDate(text)) return target.kind === 'date' ? { point: text } : { span: { start: text, end: nextDay(text) } };
  if (target.kind === 'datetime' && DATE_TIME.test(text) && isRealDate(text.slice(0, 10))) {
    const instant = new Date(text);
    if (!Number.isNaN(instant.getTime())) return { point: instant.toISOString() };
  }
  return wrongValue(target, text, expected);
}

function dateComparison(
  target: FilteredField,
  operator: 'eq' | 'ne' | (typeof ORDERING)[number],
  operand: DateOperand,
  context: OperatorContext,
): string {
  const type: SqlType = target.kind === 'date' ? 'date' : 'timestamptz';
  const at = (day: string) => context.parameters.add(type === 'date' ? day : `${day}T00:00:00.000Z`, type);
  const x = target.sql;
  if ('point' in operand) {
    const point = context.parameters.add(operand.point, type);
    return operator === 'ne' ? isNotTrue(`${x} = ${point}`) : isTrue(`${x} ${SQL_COMPARISON[operator]} ${point}`);
  }
  const { start, end } = operand.span;
  switch (operator) {
    case 'eq':
      return isTrue(`${x} >= ${at(start)} AND ${x} < ${at(end)}`);
    case 'ne':
      return isNotTrue(`${x} >= ${at(start)} AND ${x} < ${at(end)}`);
    case 'lt':
      return isTrue(`${x} < ${at(start)}`);
    case 'lte':
      return isTrue(`${x} < ${at(end)}`);
    case 'gt':
      return isTrue(`${x} >= ${at(end)}`);
    case 'gte':
      return isTrue(`${x} >= ${at(start)}`);
  }
}
