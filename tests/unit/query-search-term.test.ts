/**
 * searchTerm: the contains pattern with the platform's * and ? wildcards, LIKE's own metacharacters taken
 * literally, the fields searched (readable text fields, or a list's columns), and the SQL condition.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import {
  MAX_SEARCH_TERM_LENGTH,
  searchableFields,
  searchPattern,
  searchTermCondition,
} from '../../server/platform/query/search-term.ts';
import { SqlParameters } from '../../server/platform/query/sql.ts';
import { ACCOUNT, CONTACT, targetOf } from '../support/query-org.ts';

describe('searchPattern', () => {
  it.each([
    ['acme', '%acme%'],
    ['  acme corp ', '%acme corp%'],
    ['ac*me', '%ac%me%'],
    ['ac?e', '%ac_e%'],
    ['100%', '%100\\%%'],
    ['snake_case', '%snake\\_case%'],
    ['back\\slash', '%back\\\\slash%'],
    ["O'Brien", "%O'Brien%"],
    ["'); DROP TABLE record; --", "%'); DROP TABLE record; --%"],
  ])('turns %j into %j', (term, pattern) => {
    expect(searchPattern(term)).toBe(pattern);
  });

  it('gives no pattern for a blank term', () => {
    expect(searchPattern(undefined)).toBeNull();
    expect(searchPattern(null)).toBeNull();
    expect(searchPattern('   ')).toBeNull();
  });

  it('refuses a term that is too long, or holds a NUL character', () => {
    expect(searchPattern('x'.repeat(MAX_SEARCH_TERM_LENGTH))).toHaveLength(MAX_SEARCH_TERM_LENGTH + 2);
    for (const term of ['x'.repeat(MAX_SEARCH_TERM_LENGTH + 1), 'a\u0000b']) {
      try {
        searchPattern(term);
        throw new Error('accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(PlatformError);
        expect((error as PlatformError).errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
        expect((error as PlatformError).message).toMatch(/^Illegal value for parameter 'searchTerm'/);
      }
    }
  });
});

describe('searchableFields', () => {
  it('looks in the readable text fields: names, picklists, phones, multi-selects; not ids, numbers, dates or hidden fields', () => {
    expect(searchableFields(targetOf(ACCOUNT)).map((field) => field.apiName)).toEqual([
      'Name',
      'Industry',
      'Phone',
      'Description',
      'Regions__c',
      'Rating__c',
    ]);
  });

  it("looks only in a list's columns when given them, keeping the text ones the caller may read", () => {
    expect(
      searchableFields(targetOf(ACCOUNT), ['name', 'AnnualRevenue', 'Secret__c', 'Nope', 'Phone']).map(
        (field) => field.apiName,
      ),
    ).toEqual(['Name', 'Phone']);
  });
});

describe('searchTermCondition', () => {
  it('matches any searchable field, without regard to case, through one parameter', () => {
    const parameters = new SqlParameters(2);
    const condition = searchTermCondition('ac*me', targetOf(CONTACT), 'r', parameters, ['Name', 'Email']);
    expect(condition).toBe("(((r.fields ->> 'Name') ILIKE $3::text) OR ((r.fields ->> 'Email') ILIKE $3::text))");
    expect(parameters.values).toEqual(['%ac%me%']);
  });

  it('adds nothing for a blank term, and matches nothing when no field can be searched', () => {
    const parameters = new SqlParameters();
    expect(searchTermCondition('  ', targetOf(ACCOUNT), 'r', parameters)).toBeNull();
    expect(searchTermCondition('x', targetOf(ACCOUNT), 'r', parameters, ['AnnualRevenue'])).toBe('FALSE');
    expect(parameters.values).toEqual([]);
  });

  it('keeps a hostile term out of the SQL text', () => {
    const parameters = new SqlParameters();
    const condition = searchTermCondition("x'); DROP TABLE record; -- $1", targetOf(ACCOUNT), 'r', parameters, [
      'Name',
    ]);
    expect(condition).toBe("((r.fields ->> 'Name') ILIKE $1::text)");
    expect(parameters.values).toEqual(["%x'); DROP TABLE record; -- $1%"]);
  });
});
