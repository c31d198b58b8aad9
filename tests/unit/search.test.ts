/**
 * The pure parts of search (server/platform/search/common.ts, query/full-text.ts): the term's checks, search
 * filters as the where filter, highlighting, the full-text source and the name prefix of type-ahead.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import { fullTextSource, namePrefixCondition } from '../../server/platform/query/full-text.ts';
import { SqlParameters } from '../../server/platform/query/sql.ts';
import { checkedTerm, filtersWhere, highlightInfo } from '../../server/platform/search/common.ts';
import { ACCOUNT, CONTACT, targetOf } from '../support/query-org.ts';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return [(error as PlatformError).status, (error as PlatformError).errorCode];
  }
  return null;
};

describe('checkedTerm', () => {
  it('trims, and refuses short, long and NUL-holding terms with 400', () => {
    expect(checkedTerm('  acme ', 2)).toBe('acme');
    expect(checkedTerm('   ', 0)).toBeNull();
    for (const term of ['a', ' ', 'x'.repeat(256), 'a\u0000b'])
      expect(codeOf(() => checkedTerm(term, 2))).toEqual([400, 'ILLEGAL_QUERY_PARAMETER_VALUE']);
  });
});

describe('filtersWhere', () => {
  it('compares each filter with any of its values, through relationships, all filters together', () => {
    const where = filtersWhere(targetOf(CONTACT), [
      { fieldPath: 'Contact.Name', operator: 'eq', values: ['A', 'B'] },
      { fieldPath: 'Contact.Account.Name', operator: 'like', values: ['Ac%'] },
      { fieldPath: 'Contact.Email', operator: 'in', values: ['x@y.z'] },
    ]);
    expect(where).toEqual({
      and: [
        { or: [{ Name: { eq: 'A' } }, { Name: { eq: 'B' } }] },
        { Account: { Name: { like: 'Ac%' } } },
        { Email: { in: ['x@y.z'] } },
      ],
    });
  });

  it('types numbers and checkboxes, and refuses unknown, unreadable and foreign fields and odd values alike', () => {
    expect(
      filtersWhere(targetOf(ACCOUNT), [{ fieldPath: 'Account.AnnualRevenue', operator: 'gt', values: ['10.5'] }]),
    ).toEqual({
      AnnualRevenue: { gt: 10.5 },
    });
    const bad = [
      { fieldPath: 'Account.Secret__c', operator: 'eq', values: ['x'] },
      { fieldPath: 'Account.Nope', operator: 'eq', values: ['x'] },
      { fieldPath: 'Contact.Name', operator: 'eq', values: ['x'] },
    ];
    for (const filter of bad)
      expect(codeOf(() => filtersWhere(targetOf(ACCOUNT), [filter]))).toEqual([400, 'INVALID_FIELD']);
    expect(
      codeOf(() =>
        filtersWhere(targetOf(ACCOUNT), [{ fieldPath: 'Account.AnnualRevenue', operator: 'gt', values: ['many'] }]),
      ),
    ).toEqual([400, 'ILLEGAL_QUERY_PARAMETER_VALUE']);
    expect(
      codeOf(() =>
        filtersWhere(targetOf(ACCOUNT), [{ fieldPath: 'Account.Name', operator: 'eq; DROP', values: ['x'] }]),
      ),
    ).toEqual([400, 'ILLEGAL_QUERY_PARAMETER_VALUE']);
  });
});

describe('highlightInfo', () => {
  it('marks the words the term begins, escapes the rest, and looks only at the fields given', () => {
    const values = { Name: 'Acme <b>Automation</b> & Co', Secret__c: 'automation', Phone: '555' };
    expect(highlightInfo(values, ['Name', 'Phone'], 'auto')).toEqual({
      fields: { Name: 'Acme &#60;b&#62;<mark>Automation</mark>&#60;/b&#62; &#38; Co' },
      snippet: null,
    });
    expect(highlightInfo(values, ['Phone'], 'auto')).toBeNull();
    expect(highlightInfo(values, ['Name'], '!!')).toBeNull();
  });
});

describe('fullTextSource', () => {
  it('matches through the stored document, and again over the readable fields when some are hidden', () => {
    const parameters = new SqlParameters();
    const all = fullTextSource('acme', targetOf(CONTACT)).join('r', parameters);
    expect(all).toBe(
      'JOIN LATERAL (SELECT ts_rank(r.search_document, record_search_query($1::text)) AS rank) search_rank ON r.search_document @@ record_search_query($1::text)',
    );
    expect(parameters.values).toEqual(['acme']);
    const hidden = fullTextSource('acme', targetOf(ACCOUNT)).join('r', new SqlParameters());
    expect(hidden).toContain("AND to_tsvector('simple', concat_ws(' ', ");
    expect(hidden).not.toContain('Secret__c');
  });
});

describe('namePrefixCondition', () => {
  it('reads a range of the lower-cased name, then states the prefix exactly, wildcards escaped', () => {
    const parameters = new SqlParameters();
    const condition = namePrefixCondition('Ac_%', targetOf(ACCOUNT))('r', parameters);
    expect(condition).toBe(
      "(lower((r.fields ->> 'Name')) >= $1::text AND lower((r.fields ->> 'Name')) < $2::text AND lower((r.fields ->> 'Name')) LIKE $3::text)",
    );
    expect(parameters.values).toEqual(['ac_%', 'ac_%\u{10FFFF}', 'ac\\_\\%%']);
  });
});
