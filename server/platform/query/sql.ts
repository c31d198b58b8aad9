/**
 * The pieces every query of the list engine is built from: a statement with its positional parameters, the
 * collector that hands out placeholders, and conditions written by trusted code. Values only ever travel as
 * parameters; the only names written into SQL text come from the org's metadata and pass jsonKey's check.
 */

/** A statement and its parameter values, ready for Queryable.query(text, values). */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

/**
 * Hands out `$n` placeholders for values. Placeholders start after `offset`, so that a fragment can join a
 * statement that already has parameters. Each placeholder carries a cast: PostgreSQL then never has to
 * guess a parameter's type (and refuses a value of the wrong shape instead of comparing it as text).
 */
export class SqlParameters {
  readonly values: unknown[] = [];

  constructor(private readonly offset = 0) {}

  add(value: unknown, type: SqlType): string {
    return `$${this.offset + this.values.push(value)}::${type}`;
  }
}

export type SqlType = 'text' | 'text[]' | 'numeric' | 'numeric[]' | 'boolean' | 'date' | 'timestamptz' | 'int';

/**
 * A condition on the rows of an object, written by trusted code (sharing, a related list's parent ...):
 * `alias` names the record row, `parameters` gives the placeholders of its values.
 */
export type RowCondition = (alias: string, parameters: SqlParameters) => string;

const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * A metadata name as the SQL string literal of a jsonb key. Written into the text rather than passed as a
 * parameter so that expression indexes such as `(fields ->> 'AccountId')` apply; the check makes sure
 * a name could never close the literal, whatever the metadata says.
 */
export function jsonKey(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Metadata name not usable in a query: ${JSON.stringify(name)}`);
  return `'${name}'`;
}

/** Conditions joined with AND; TRUE when there are none. */
export function allOf(conditions: string[]): string {
  if (conditions.length === 0) return 'TRUE';
  return conditions.length === 1 ? conditions[0] : `(${conditions.join(' AND ')})`;
}

/** Conditions joined with OR; FALSE when there are none. */
export function anyOf(conditions: string[]): string {
  if (conditions.length === 0) return 'FALSE';
  return conditions.length === 1 ? conditions[0] : `(${conditions.join(' OR ')})`;
}
