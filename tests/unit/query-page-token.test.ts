/**
 * Page sizes, page tokens (record offsets up to 2000) and the current/next/previous tokens and URLs of a
 * page, as the platform gives them.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import {
  LIST_RECORDS_PAGE_SIZE,
  MAX_OFFSET,
  MAX_PAGE_SIZE,
  pageLinks,
  pageTokens,
  pageUrl,
  parsePageSize,
  parsePageToken,
  splitLookahead,
} from '../../server/platform/query/page-token.ts';

function refusal(run: () => unknown): PlatformError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).status).toBe(400);
    expect((error as PlatformError).errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    return error as PlatformError;
  }
  throw new Error('accepted');
}

describe('parsePageSize', () => {
  it('takes the default when absent', () => {
    expect(parsePageSize(undefined, LIST_RECORDS_PAGE_SIZE)).toBe(50);
    expect(parsePageSize(null, 20)).toBe(20);
  });

  it('accepts whole numbers from 1 to 2000, as numbers or query-string text', () => {
    expect(parsePageSize(1, 50)).toBe(1);
    expect(parsePageSize(MAX_PAGE_SIZE, 50)).toBe(2000);
    expect(parsePageSize('25', 50)).toBe(25);
    expect(parsePageSize('2000', 50)).toBe(2000);
  });

  it.each([0, 2001, -1, 2.5, Number.NaN, '0', '2001', '', 'abc', '-1', '1e3', '10.0', ' 10', '0x10'])(
    'refuses %j',
    (size) => {
      expect(refusal(() => parsePageSize(size, 50)).message).toMatch(
        /^Illegal value for parameter 'pageSize': .* is not a whole number from 1 to 2000$/,
      );
    },
  );
});

describe('parsePageToken', () => {
  it('reads an absent token as the first page', () => {
    expect(parsePageToken(undefined)).toBe(0);
    expect(parsePageToken(null)).toBe(0);
  });

  it('reads offsets from 0 to 2000', () => {
    expect(parsePageToken('0')).toBe(0);
    expect(parsePageToken('3')).toBe(3);
    expect(parsePageToken(String(MAX_OFFSET))).toBe(2000);
  });

  it.each([
    '2001',
    '999999999999',
    'abc',
    '-1',
    '1e3',
    '1.5',
    '',
    ' 3',
    '3 ',
    '+3',
    '0x10',
    "0'; DROP TABLE record; --",
  ])('refuses %j, naming it', (token) => {
    const error = refusal(() => parsePageToken(token));
    expect(error.message).toBe(
      `Illegal value for parameter 'pageToken': ${JSON.stringify(token.slice(0, 20))} is not a page token (a record offset from 0 to 2000)`,
    );
  });
});

describe('pageTokens', () => {
  it('gives the first page no previous token', () => {
    expect(pageTokens(0, 3, true)).toEqual({ currentPageToken: '0', nextPageToken: '3', previousPageToken: null });
  });

  it('steps by the page size, as the platform does (pageSize 3: 0, 3, 6)', () => {
    expect(pageTokens(3, 3, true)).toEqual({ currentPageToken: '3', nextPageToken: '6', previousPageToken: '0' });
    expect(pageTokens(4, 2, true)).toEqual({ currentPageToken: '4', nextPageToken: '6', previousPageToken: '2' });
  });

  it('gives the last page no next token', () => {
    expect(pageTokens(6, 3, false)).toEqual({ currentPageToken: '6', nextPageToken: null, previousPageToken: '3' });
    expect(pageTokens(0, 50, false)).toEqual({ currentPageToken: '0', nextPageToken: null, previousPageToken: null });
  });

  it('never points before the first record, from an offset that is not a multiple of the page size', () => {
    expect(pageTokens(2, 5, false).previousPageToken).toBe('0');
  });

  it('stops at the offset limit: a next page starting past 2000 has no token', () => {
    expect(pageTokens(1950, 50, true).nextPageToken).toBe('2000');
    expect(pageTokens(1960, 50, true).nextPageToken).toBeNull();
    expect(pageTokens(2000, 1, true).nextPageToken).toBeNull();
  });
});

describe('pageUrl and pageLinks', () => {
  const base = '/services/data/v65.0/ui-api/list-records/Account/AllAccounts';

  it('puts the parameters in alphabetical order, encodes values and commas, and leaves out absent ones', () => {
    expect(
      pageUrl(
        base,
        {
          sortBy: '-Name',
          fields: ['Account.Name', 'Account.Phone'],
          optionalFields: [],
          searchTerm: undefined,
          where: null,
          pageSize: 3,
        },
        '6',
      ),
    ).toBe(`${base}?fields=Account.Name%2CAccount.Phone&pageSize=3&pageToken=6&sortBy=-Name`);
    expect(pageUrl(base, { searchTerm: 'a&b=c d' }, '0')).toBe(`${base}?pageToken=0&searchTerm=a%26b%3Dc%20d`);
  });

  it('builds the current, next and previous URLs with the tokens', () => {
    expect(pageLinks(base, { fields: ['Account.Name'], sortBy: 'Name' }, 3, 3, true)).toEqual({
      currentPageToken: '3',
      currentPageUrl: `${base}?fields=Account.Name&pageSize=3&pageToken=3&sortBy=Name`,
      nextPageToken: '6',
      nextPageUrl: `${base}?fields=Account.Name&pageSize=3&pageToken=6&sortBy=Name`,
      previousPageToken: '0',
      previousPageUrl: `${base}?fields=Account.Name&pageSize=3&pageToken=0&sortBy=Name`,
    });
    expect(pageLinks(base, {}, 0, 50, false)).toMatchObject({
      currentPageUrl: `${base}?pageSize=50&pageToken=0`,
      nextPageUrl: null,
      previousPageUrl: null,
    });
  });
});

describe('splitLookahead', () => {
  it('keeps the page and says whether more records follow', () => {
    expect(splitLookahead([1, 2, 3, 4], 3)).toEqual({ rows: [1, 2, 3], hasMore: true });
    expect(splitLookahead([1, 2, 3], 3)).toEqual({ rows: [1, 2, 3], hasMore: false });
    expect(splitLookahead([], 3)).toEqual({ rows: [], hasMore: false });
  });
});
