/**
 * sortBy: reading comma strings and lists, descending fields, the echo with its Id tie-break, relationship
 * paths, the five-field limit, and refusals of unknown, unreadable, unsortable and malformed fields.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import { MAX_SORT_FIELDS, orderByClause, parseSortBy } from '../../server/platform/query/sort.ts';
import { SqlParameters } from '../../server/platform/query/sql.ts';
import { ACCOUNT, CONTACT, STANDARD_ID, targetOf, testAccess } from '../support/query-org.ts';

const accounts = targetOf(ACCOUNT);
const contacts = targetOf(CONTACT);

function refusal(input: string | string[], target = accounts): PlatformError {
  try {
    parseSortBy(input, target);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).status).toBe(400);
    return error as PlatformError;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('parseSortBy', () => {
  it('reads one field and echoes it with the Id tie-break', () => {
    expect(parseSortBy('Name', accounts)).toEqual({
      keys: [{ path: 'Name', descending: false }],
      sortBy: 'Name,Id',
      sortByList: ['Name', 'Id'],
    });
    expect(parseSortBy('-CreatedDate', accounts).sortBy).toBe('-CreatedDate,Id');
  });

  it('reads comma strings and lists alike, ignoring blanks, with the metadata spelling of names', () => {
    const expected = parseSortBy('Name,-AnnualRevenue', accounts);
    expect(parseSortBy(['Name', '-AnnualRevenue'], accounts)).toEqual(expected);
    expect(parseSortBy([' name , ', '-annualrevenue'], accounts)).toEqual(expected);
    expect(expected.sortBy).toBe('Name,-AnnualRevenue,Id');
  });

  it('does not add Id when it is asked for, in whichever direction', () => {
    expect(parseSortBy('Name,-Id', accounts).sortBy).toBe('Name,-Id');
    expect(parseSortBy('Id', accounts).sortByList).toEqual(['Id']);
  });

  it('falls back on the default order, and on Id alone without one', () => {
    expect(parseSortBy(undefined, accounts, '-LastModifiedDate').sortBy).toBe('-LastModifiedDate,Id');
    expect(parseSortBy('', accounts, ['Name']).sortBy).toBe('Name,Id');
    expect(parseSortBy(null, accounts)).toEqual({ keys: [], sortBy: 'Id', sortByList: ['Id'] });
  });

  it('sorts through relationships, and accepts names qualified by the object', () => {
    expect(parseSortBy('-Account.Name', contacts).sortBy).toBe('-Account.Name,Id');
    expect(parseSortBy('account.owner.name', contacts).sortBy).toBe('Account.Owner.Name,Id');
    expect(parseSortBy('Contact.LastName', contacts).sortBy).toBe('LastName,Id');
  });

  it(`takes at most ${MAX_SORT_FIELDS} fields`, () => {
    expect(parseSortBy('Name,Industry,AnnualRevenue,NumberOfEmployees,CreatedDate', accounts).keys).toHaveLength(5);
    const error = refusal('Name,Industry,AnnualRevenue,NumberOfEmployees,CreatedDate,Phone');
    expect(error.errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(error.message).toBe("Illegal value for parameter 'sortBy': at most 5 fields, not 6");
  });

  it('refuses a field named twice', () => {
    expect(refusal('Name,-name').message).toBe("Illegal value for parameter 'sortBy': Name is named twice");
  });

  it('refuses unknown and unreadable fields with the same error', () => {
    const unknown = refusal('Nope__c');
    const unreadable = refusal('-Secret__c');
    expect([unknown.errorCode, unreadable.errorCode]).toEqual(['INVALID_FIELD', 'INVALID_FIELD']);
    expect(unreadable.message).toBe(unknown.message.replace('Nope__c', 'Secret__c'));
    expect(refusal('Vault.Name', contacts).errorCode).toBe('INVALID_FIELD');
    expect(refusal('Account.Secret__c', contacts).message).toMatch(
      /^No such column 'Account.Secret__c' on entity 'Contact'/,
    );
  });

  it('refuses fields that cannot be sorted', () => {
    expect(refusal('Description').message).toBe("Field 'Description' can not be sorted in a query call");
    expect(refusal('Regions__c').message).toBe("Field 'Regions__c' can not be sorted in a query call");
    expect(refusal('-Logo__c').errorCode).toBe('INVALID_FIELD');
  });

  it.each([
    '-',
    '--Name',
    '+Name',
    'Name DESC',
    "Name'); DROP TABLE record; --",
    'Name$1',
    'Na\\me',
    'Account..Name',
    '"Name"',
  ])('refuses the malformed entry %j', (entry) => {
    expect(refusal(entry, contacts).errorCode).toBe('INVALID_FIELD');
  });
});

describe('orderByClause', () => {
  const clause = (input: string, target = accounts) => {
    const parameters = new SqlParameters();
    return { text: orderByClause(parseSortBy(input, target), target, 'r', parameters), values: parameters.values };
  };

  it('orders text without regard to case, nulls first ascending and last descending, then by Id', () => {
    expect(clause('Name')).toEqual({ text: "lower((r.fields ->> 'Name')) ASC NULLS FIRST, r.id ASC", values: [] });
    expect(clause('-CreatedDate,NumberOfEmployees').text).toBe(
      "r.created_date DESC NULLS LAST, (CASE WHEN jsonb_typeof(r.fields -> 'NumberOfEmployees') = 'number' THEN (r.fields ->> 'NumberOfEmployees')::numeric END) ASC NULLS FIRST, r.id ASC",
    );
    expect(clause('-Id').text).toBe('r.id DESC NULLS LAST');
  });

  it('orders by a parent field through a subquery that applies the caller visibility', () => {
    const target = targetOf(CONTACT, testAccess({ ownAccountsOnly: STANDARD_ID }));
    expect(clause('-Account.Name', target)).toEqual({
      text: "lower((SELECT (p1.fields ->> 'Name') FROM record p1 WHERE p1.id = (r.fields ->> 'AccountId') AND p1.object_api_name = $1::text AND (p1.fields ->> 'OwnerId' = $2::text OR p1.created_by_id = $2::text))) DESC NULLS LAST, r.id ASC",
      values: ['Account', STANDARD_ID],
    });
  });
});
