/**
 * The errors of query parameters, with the platform's codes: ILLEGAL_QUERY_PARAMETER_VALUE for a value
 * that cannot be read at all (syntax, limits, page tokens), INVALID_FIELD for a field that does not exist
 * for the caller or cannot be filtered or sorted on, INVALID_QUERY_FILTER_OPERATOR for an operator or a
 * value that does not fit the field's type (the code SOQL answers with). Messages name the parameter and
 * the offending text, never the SQL built from it.
 */
import { PlatformError } from '../core/errors.ts';

const MAX_EXCERPT = 60;

/** Text from the request cut short, for a message. */
export const cut = (text: string) => (text.length > MAX_EXCERPT ? `${text.slice(0, MAX_EXCERPT)}…` : text);

/** A value from the request as JSON (a string quoted), cut short, for a message. */
export function excerpt(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(cut(value)) : cut(JSON.stringify(value) ?? String(value));
}

export const illegalValue = (parameter: string, problem: string) =>
  new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', `Illegal value for parameter '${parameter}': ${problem}`);

export const invalidOperator = (message: string) => new PlatformError(400, 'INVALID_QUERY_FILTER_OPERATOR', message);

export const notFilterable = (path: string) =>
  new PlatformError(400, 'INVALID_FIELD', `Field '${path}' can not be filtered in a query call`);

export const notSortable = (path: string) =>
  new PlatformError(400, 'INVALID_FIELD', `Field '${path}' can not be sorted in a query call`);
