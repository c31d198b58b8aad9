/**
 * The `where` filter of list requests compiled to an SQL condition over the record table. Keys of a filter
 * object are ANDed; each is a field with its operators (`{ AnnualRevenue: { gt: 10000, lt: 100000 } }`,
 * also ANDed), a relationship holding a filter on the parent (`{ Account: { Name: { eq: "X" } } }`), or a
 * combinator: `and: [...]`, `or: [...]`, `not: {...}`. Fields are checked against the org's metadata and
 * the caller's access: unknown and unreadable fields fail alike, so a filter reveals nothing of fields the
 * caller may not see. Values are always parameters.
 */
import type { FieldDefinition } from '../core/definitions.ts';
import { invalidField } from '../records/field-paths.ts';
import { cut, excerpt, illegalValue, notFilterable } from './errors.ts';
import { followRelationship, isFilterable, readableField, rootScope, valueKindOf, type RowScope } from './fields.ts';
import { allOf, anyOf, SqlParameters, type SqlQuery } from './sql.ts';
import type { QueryTarget } from './target.ts';
import { isNotTrue, operatorCondition } from './where-operators.ts';
import { isWhereObject, parseWhere, type WhereObject, type WhereValue } from './where-parser.ts';

/** Deepest nesting of filter objects (combinators and relationships each add a level). */
export const MAX_WHERE_DEPTH = 10;
/** Most conditions in one filter: each operator, combinator and relationship counts one. */
export const MAX_WHERE_CONDITIONS = 200;

/** A filter as text (the request's `where`) or already parsed (a list view's filter built in code). */
export type WhereInput = string | WhereObject;

interface WhereOptions {
  /** The clock date literals (TODAY, LAST_N_DAYS ...) are computed from. */
  now: Date;
  /** The alias of the queried object's record row in the statement; `r` by default. */
  alias?: string;
  /** Parameters already in the statement: the first placeholder of the filter is `$(offset + 1)`. */
  parameterOffset?: number;
  /** The parameter named in messages; `where` by default. */
  parameter?: string;
}

class WhereCompiler {
  private conditions = 0;

  constructor(
    private readonly target: QueryTarget,
    private readonly parameters: SqlParameters,
    private readonly now: Date,
    private readonly parameter: string,
  ) {}

  private count(added = 1): void {
    this.conditions += added;
    if (this.conditions > MAX_WHERE_CONDITIONS)
      throw illegalValue(this.parameter, `more than ${MAX_WHERE_CONDITIONS} conditions`);
  }

  object(node: WhereObject, scope: RowScope, depth: number): string {
    if (depth > MAX_WHERE_DEPTH)
      throw illegalValue(this.parameter, `filters nested deeper than ${MAX_WHERE_DEPTH} levels`);
    return allOf(Object.entries(node).map(([key, value]) => this.entry(key, value, scope, depth)));
  }

  private entry(key: string, value: WhereValue, scope: RowScope, depth: number): string {
    if (key === 'and' || key === 'or') {
      this.count();
      if (!Array.isArray(value) || value.length === 0 || !value.every(isWhereObject)) {
        throw illegalValue(this.parameter, `'${key}' takes a non-empty list of filter objects`);
      }
      const parts = value.map((part) => this.object(part, scope, depth + 1));
      return key === 'and' ? allOf(parts) : anyOf(parts);
    }
    if (key === 'not') {
      this.count();
      if (!isWhereObject(value)) throw illegalValue(this.parameter, "'not' takes one filter object");
      return isNotTrue(this.object(value, scope, depth + 1));
    }
    const path = [...scope.path, key].join('.');
    const field = readableField(this.target, scope, key);
    if (field) return this.field(field, path, value, scope);
    const parent = followRelationship(this.target, scope, key, this.parameters);
    if (!parent) throw invalidField(this.target.object.apiName, cut(path));
    this.count();
    if (!isWhereObject(value))
      throw illegalValue(
        this.parameter,
        `relationship '${cut(path)}' takes a filter object such as { Name: { eq: "..." } }`,
      );
    return this.object(value, parent, depth + 1);
  }

  private field(field: FieldDefinition, path: string, operators: WhereValue, scope: RowScope): string {
    const named = [...scope.path, field.apiName].join('.');
    const kind = valueKindOf(field);
    if (!kind || !isFilterable(field)) throw notFilterable(named);
    if (!isWhereObject(operators) || Object.keys(operators).length === 0) {
      throw illegalValue(
        this.parameter,
        `field '${cut(path)}' takes an object of operators such as { eq: ... }, not ${excerpt(operators)}`,
      );
    }
    const entries = Object.entries(operators);
    this.count(entries.length);
    const target = { field, kind, path: named, sql: scope.value(field) };
    return allOf(
      entries.map(([operator, value]) =>
        operatorCondition(target, operator, value, { parameters: this.parameters, now: this.now }),
      ),
    );
  }
}

/**
 * The condition of a filter on the rows of the queried object named `alias`, its values added to
 * `parameters`. A blank or empty filter is TRUE.
 */
export function whereCondition(
  where: WhereInput,
  target: QueryTarget,
  alias: string,
  parameters: SqlParameters,
  now: Date,
  parameter = 'where',
): string {
  const filter = typeof where === 'string' ? parseWhere(where, parameter) : where;
  if (!isWhereObject(filter)) throw illegalValue(parameter, 'expected a filter object');
  return new WhereCompiler(target, parameters, now, parameter).object(filter, rootScope(target.object, alias), 1);
}

/** A filter as a stand-alone SQL fragment: its condition and the values of its placeholders. */
export function compileWhere(where: WhereInput, target: QueryTarget, options: WhereOptions): SqlQuery {
  const parameters = new SqlParameters(options.parameterOffset ?? 0);
  const text = whereCondition(where, target, options.alias ?? 'r', parameters, options.now, options.parameter);
  return { text, values: parameters.values };
}
