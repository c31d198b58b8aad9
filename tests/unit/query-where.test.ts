/**
 * The `where` compiler: every operator on every kind of field, the combinators, relationships, the type
 * checks against the metadata, access (an unreadable field fails exactly like an unknown one), the limits,
 * and values that try to break out of their parameters.
 */
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../server/platform/core/errors.ts';
import {
  compileWhere,
  MAX_WHERE_CONDITIONS,
  MAX_WHERE_DEPTH,
  type WhereInput,
} from '../../server/platform/query/where.ts';
import { likePattern } from '../../server/platform/query/where-operators.ts';
import { ACCOUNT, CONTACT, NOW, STANDARD_ID, targetOf, testAccess } from '../support/query-org.ts';
import type { DescribedObject } from '../../server/platform/core/describe.ts';

const compile = (where: WhereInput, object: DescribedObject = ACCOUNT, access = testAccess()) =>
  compileWhere(where, targetOf(object, access), { now: NOW });

function refusal(where: WhereInput, object: DescribedObject = ACCOUNT): PlatformError {
  try {
    compile(where, object);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    const refused = error as PlatformError;
    expect(refused.status).toBe(400);
    // Messages speak of the request, never of the SQL built from it.
    expect(refused.message).not.toMatch(/SELECT |::text|::numeric|IS (NOT )?TRUE|p1\./);
    return refused;
  }
  throw new Error(`accepted: ${JSON.stringify(where)}`);
}

const NAME = "(r.fields ->> 'Name')";
const REVENUE =
  "(CASE WHEN jsonb_typeof(r.fields -> 'AnnualRevenue') = 'number' THEN (r.fields ->> 'AnnualRevenue')::numeric END)";

describe('compileWhere: text fields', () => {
  it.each([
    ['eq', '{ Name: { eq: "Acme" } }', `(lower(${NAME}) = lower($1::text))`],
    ['ne', '{ Name: { ne: "Acme" } }', `((lower(${NAME}) = lower($1::text)) IS NOT TRUE)`],
    ['lt', '{ Name: { lt: "Acme" } }', `(lower(${NAME}) < lower($1::text))`],
    ['lte', '{ Name: { lte: "Acme" } }', `(lower(${NAME}) <= lower($1::text))`],
    ['gt', '{ Name: { gt: "Acme" } }', `(lower(${NAME}) > lower($1::text))`],
    ['gte', '{ Name: { gte: "Acme" } }', `(lower(${NAME}) >= lower($1::text))`],
    ['like', '{ Name: { like: "Acme" } }', `(${NAME} ILIKE $1::text)`],
  ])('compiles %s case-insensitively with the value as a parameter', (_operator, where, sql) => {
    expect(compile(where)).toEqual({ text: sql, values: ['Acme'] });
  });

  it('compiles in and nin over a list parameter, nin as the complement of in', () => {
    const inList = `(lower(${NAME}) IN (SELECT lower(v) FROM unnest($1::text[]) AS v))`;
    expect(compile('{ Name: { in: ["A", "B"] } }')).toEqual({ text: inList, values: [['A', 'B']] });
    expect(compile('{ Name: { nin: ["A", "B"] } }')).toEqual({
      text: `((${inList}) IS NOT TRUE)`,
      values: [['A', 'B']],
    });
  });

  it('treats null and the empty string alike, as the platform stores an empty text as null', () => {
    expect(compile('{ Name: { eq: null } }')).toEqual({ text: `(coalesce(${NAME}, '') = '')`, values: [] });
    expect(compile('{ Name: { eq: "" } }').text).toBe(`(coalesce(${NAME}, '') = '')`);
    expect(compile('{ Name: { ne: null } }').text).toBe(`(NOT (coalesce(${NAME}, '') = ''))`);
    expect(compile('{ Name: { in: ["A", ""] } }')).toEqual(compile('{ Name: { in: ["A", null] } }'));
    expect(compile('{ Name: { in: ["A", null] } }').text).toBe(
      `((coalesce(${NAME}, '') = '') OR (lower(${NAME}) IN (SELECT lower(v) FROM unnest($1::text[]) AS v)))`,
    );
  });

  it('matches nothing for an empty in-list and everything for an empty nin-list', () => {
    expect(compile('{ Name: { in: [] } }').text).toBe('FALSE');
    expect(compile('{ Name: { nin: [] } }').text).toBe('((FALSE) IS NOT TRUE)');
  });

  it('filters picklists, phones and other text types the same way', () => {
    expect(compile('{ Industry: { eq: "Energy" }, Phone: { like: "216%" } }').values).toEqual(['Energy', '216%']);
  });

  it('keeps SOQL LIKE patterns, making a trailing lone backslash literal', () => {
    expect(likePattern('a\\%b%')).toBe('a\\%b%');
    expect(likePattern('ends\\')).toBe('ends\\\\');
    expect(likePattern('ends\\\\')).toBe('ends\\\\');
    expect(compile(String.raw`{ Name: { like: "50\\" } }`).values).toEqual(['50\\\\']);
  });

  it('refuses a value of another type, an ordering operator on null, and a pattern that is not text', () => {
    expect(refusal('{ Name: { eq: 12 } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
    expect(refusal('{ Name: { eq: 12 } }').message).toBe("Value 12 for field 'Name' of type String must be a string");
    expect(refusal('{ Name: { gt: null } }').message).toContain('must be a value, not null or empty');
    expect(refusal('{ Name: { lt: "" } }').message).toContain('must be a value, not null or empty');
    expect(refusal('{ Name: { eq: Acme } }').message).toBe(
      "Value Acme for field 'Name' of type String must be a string",
    );
    expect(refusal('{ Name: { like: ["a"] } }').message).toContain('must be a string pattern');
    expect(refusal('{ Name: { in: "A" } }').message).toBe("Operator 'in' on field 'Name' takes a list of values");
    expect(refusal('{ Name: { in: ["A", 1] } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
  });
});

describe('compileWhere: ids and references', () => {
  it('compares ids exactly, turning 15-character ids into 18', () => {
    expect(compile('{ Id: { eq: "001000000000001" } }')).toEqual({
      text: '(r.id = $1::text)',
      values: ['001000000000001AAA'],
    });
    expect(compile('{ OwnerId: { ne: "005000000000002AAA" } }')).toEqual({
      text: "(((r.fields ->> 'OwnerId') = $1::text) IS NOT TRUE)",
      values: ['005000000000002AAA'],
    });
    expect(compile('{ CreatedById: { in: ["005000000000001", "005000000000002AAA"] } }')).toEqual({
      text: '(r.created_by_id = ANY($1::text[]))',
      values: [['005000000000001AAA', '005000000000002AAA']],
    });
    expect(compile('{ ParentId: { eq: null } }').text).toBe("((r.fields ->> 'ParentId') IS NULL)");
  });

  it('refuses a value that is not an id, and text operators on ids', () => {
    expect(refusal('{ Id: { eq: "nope" } }').message).toBe(`Invalid ID value "nope" for field 'Id'`);
    expect(refusal('{ Id: { eq: "001000000000001AAB" } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
    expect(refusal('{ OwnerId: { like: "005%" } }').message).toBe(
      "Operator 'like' can not be used on field 'OwnerId' of type Reference",
    );
    expect(refusal('{ Id: { gt: "001000000000001AAA" } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
  });
});

describe('compileWhere: numbers', () => {
  it.each([
    ['eq', '='],
    ['lt', '<'],
    ['lte', '<='],
    ['gt', '>'],
    ['gte', '>='],
  ])('compiles %s as a numeric comparison', (operator, sql) => {
    expect(compile(`{ AnnualRevenue: { ${operator}: 1000000 } }`)).toEqual({
      text: `(${REVENUE} ${sql} $1::numeric)`,
      values: [1000000],
    });
  });

  it('compiles ne, in and nin, and null', () => {
    expect(compile('{ NumberOfEmployees: { ne: 5 } }').text).toContain('= $1::numeric) IS NOT TRUE)');
    expect(compile('{ NumberOfEmployees: { in: [1, 2.5] } }')).toMatchObject({ values: [[1, 2.5]] });
    expect(compile('{ NumberOfEmployees: { in: [1, 2.5] } }').text).toContain('= ANY($1::numeric[])');
    expect(compile('{ NumberOfEmployees: { nin: [1] } }').text).toMatch(/ IS NOT TRUE\)$/);
    expect(compile('{ AnnualRevenue: { eq: null } }').text).toBe(`(${REVENUE} IS NULL)`);
  });

  it('ANDs several operators on one field (a range)', () => {
    expect(compile('{ AnnualRevenue: { gt: 10000, lt: 100000 } }')).toEqual({
      text: `((${REVENUE} > $1::numeric) AND (${REVENUE} < $2::numeric))`,
      values: [10000, 100000],
    });
  });

  it('refuses text for a number, text operators and multi-select operators', () => {
    expect(refusal('{ AnnualRevenue: { gt: "1000" } }').message).toBe(
      `Value "1000" for field 'AnnualRevenue' of type Currency must be a number`,
    );
    expect(refusal('{ NumberOfEmployees: { like: "1%" } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
    expect(refusal('{ NumberOfEmployees: { includes: ["1"] } }').message).toBe(
      "Operator 'includes' can not be used on field 'NumberOfEmployees' of type Int",
    );
    expect(refusal('{ NumberOfEmployees: { in: [1, "2"] } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
  });
});

describe('compileWhere: checkboxes', () => {
  const PARTNER = "coalesce(r.fields ->> 'IsPartner__c' = 'true', false)";

  it('compiles eq and ne on a value that is never null', () => {
    expect(compile('{ IsPartner__c: { eq: true } }')).toEqual({ text: `(${PARTNER} = $1::boolean)`, values: [true] });
    expect(compile('{ IsPartner__c: { ne: false } }')).toEqual({
      text: `((${PARTNER} = $1::boolean) IS NOT TRUE)`,
      values: [false],
    });
  });

  it('refuses ordering, text and null', () => {
    expect(refusal('{ IsPartner__c: { gt: true } }').message).toBe(
      "Operator 'gt' can not be used on field 'IsPartner__c' of type Boolean",
    );
    expect(refusal('{ IsPartner__c: { eq: "true" } }').message).toContain('must be true or false');
    expect(refusal('{ IsPartner__c: { eq: null } }').message).toContain('must be true or false');
    expect(refusal('{ IsPartner__c: { in: [true] } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
  });
});

describe('compileWhere: dates and date-times', () => {
  const FOUNDED = "(r.fields ->> 'Founded__c')::date";

  it('compares a date field with a day, bare or as { value }', () => {
    expect(compile('{ Founded__c: { eq: "2020-02-29" } }')).toEqual({
      text: `(${FOUNDED} = $1::date)`,
      values: ['2020-02-29'],
    });
    expect(compile('{ Founded__c: { lt: { value: "2020-02-29" } } }')).toEqual({
      text: `(${FOUNDED} < $1::date)`,
      values: ['2020-02-29'],
    });
  });

  it('turns a literal into the days it spans, from the injected clock', () => {
    expect(compile('{ Founded__c: { eq: { literal: TODAY } } }')).toEqual({
      text: `(${FOUNDED} >= $1::date AND ${FOUNDED} < $2::date)`,
      values: ['2024-05-15', '2024-05-16'],
    });
    expect(compile('{ Founded__c: { eq: { literal: "THIS_MONTH" } } }').values).toEqual(['2024-05-01', '2024-06-01']);
    expect(compile('{ Founded__c: { gte: { literal: "LAST_N_DAYS:7" } } }')).toEqual({
      text: `(${FOUNDED} >= $1::date)`,
      values: ['2024-05-08'],
    });
    expect(compile('{ Founded__c: { gte: { range: { last_n_days: 30 } } } }').values).toEqual(['2024-04-15']);
    expect(compile('{ Founded__c: { lte: { range: { next_n_days: 3 } } } }')).toEqual({
      text: `(${FOUNDED} < $1::date)`,
      values: ['2024-05-19'],
    });
  });

  it('maps each operator on a span of days onto its bounds', () => {
    const bounds = (operator: string) => compile(`{ Founded__c: { ${operator}: { literal: YESTERDAY } } }`);
    expect(bounds('lt')).toEqual({ text: `(${FOUNDED} < $1::date)`, values: ['2024-05-14'] });
    expect(bounds('lte')).toEqual({ text: `(${FOUNDED} < $1::date)`, values: ['2024-05-15'] });
    expect(bounds('gt')).toEqual({ text: `(${FOUNDED} >= $1::date)`, values: ['2024-05-15'] });
    expect(bounds('gte')).toEqual({ text: `(${FOUNDED} >= $1::date)`, values: ['2024-05-14'] });
    expect(bounds('ne')).toEqual({
      text: `((${FOUNDED} >= $1::date AND ${FOUNDED} < $2::date) IS NOT TRUE)`,
      values: ['2024-05-14', '2024-05-15'],
    });
  });

  it('compiles in and nin over days and literals alike', () => {
    const compiled = compile('{ Founded__c: { in: ["2020-01-01", { literal: TODAY }] } }');
    expect(compiled.values).toEqual(['2020-01-01', '2024-05-15', '2024-05-16']);
    expect(compiled.text).toMatch(/^\(\(.* = \$1::date\) OR /);
    expect(compile('{ Founded__c: { nin: ["2020-01-01"] } }').text).toBe(`(((${FOUNDED} = $1::date)) IS NOT TRUE)`);
  });

  it('reads system date-times from their columns and normalises instants to UTC', () => {
    expect(compile('{ CreatedDate: { gt: "2024-01-01T10:00:00+02:00" } }')).toEqual({
      text: '(r.created_date > $1::timestamptz)',
      values: ['2024-01-01T08:00:00.000Z'],
    });
    expect(compile('{ SystemModstamp: { gte: { value: "2024-01-01T00:00:00Z" } } }').text).toBe(
      '(r.system_modstamp >= $1::timestamptz)',
    );
  });

  it('reads a day given for a date-time as that whole UTC day', () => {
    expect(compile('{ LastModifiedDate: { eq: "2024-01-01" } }')).toEqual({
      text: '(r.last_modified_date >= $1::timestamptz AND r.last_modified_date < $2::timestamptz)',
      values: ['2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z'],
    });
    expect(compile('{ CreatedDate: { eq: { literal: TODAY } } }').values).toEqual([
      '2024-05-15T00:00:00.000Z',
      '2024-05-16T00:00:00.000Z',
    ]);
  });

  it.each([
    ['a day that does not exist', '{ Founded__c: { eq: "2023-02-29" } }', 'must be a date'],
    ['a date-time for a date field', '{ Founded__c: { eq: "2023-02-01T00:00:00Z" } }', 'must be a date'],
    ['a number', '{ Founded__c: { eq: 20230201 } }', 'must be a date'],
    ['an object with two keys', '{ Founded__c: { eq: { value: "2023-02-01", literal: TODAY } } }', 'must be a date'],
    ['an unknown literal', '{ Founded__c: { eq: { literal: SOMEDAY } } }', 'Unknown date literal "SOMEDAY"'],
    [
      'an unknown range',
      '{ Founded__c: { eq: { range: { last_n_weeks: 2 } } } }',
      'must be { last_n_days: n } or { next_n_days: n }',
    ],
    ['a negative range', '{ Founded__c: { eq: { range: { last_n_days: -1 } } } }', 'must be { last_n_days: n }'],
    ['a fractional range', '{ Founded__c: { eq: { range: { next_n_days: 1.5 } } } }', 'must be { last_n_days: n }'],
    ['like on a date', '{ Founded__c: { like: "2020%" } }', "Operator 'like' can not be used"],
    ['a malformed date-time', '{ CreatedDate: { gt: "2024-01-01 10:00" } }', 'must be a date'],
  ])('refuses %s', (_name, where, problem) => {
    const error = refusal(where);
    expect(error.errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
    expect(error.message).toContain(problem);
  });
});

describe('compileWhere: multi-select picklists', () => {
  const REGIONS = "string_to_array(lower((r.fields ->> 'Regions__c')), ';')";

  it('compiles includes as "holds any of the entries", an entry with ; holding all of its values', () => {
    expect(compile('{ Regions__c: { includes: ["EMEA", "APAC;LATAM"] } }')).toEqual({
      text: `((${REGIONS} @> string_to_array(lower($1::text), ';')) OR (${REGIONS} @> string_to_array(lower($2::text), ';')))`,
      values: ['EMEA', 'APAC;LATAM'],
    });
  });

  it('compiles excludes as the complement of includes, and eq as the same set in any order', () => {
    expect(compile('{ Regions__c: { excludes: ["EMEA"] } }').text).toBe(
      `(((${REGIONS} @> string_to_array(lower($1::text), ';'))) IS NOT TRUE)`,
    );
    expect(compile('{ Regions__c: { eq: "EMEA;APAC" } }').text).toBe(
      `(${REGIONS} @> string_to_array(lower($1::text), ';') AND ${REGIONS} <@ string_to_array(lower($1::text), ';'))`,
    );
    expect(compile('{ Regions__c: { ne: null } }').text).toBe("(NOT (coalesce((r.fields ->> 'Regions__c'), '') = ''))");
  });

  it('refuses includes on other fields and text operators on multi-selects', () => {
    expect(refusal('{ Industry: { includes: ["Energy"] } }').message).toBe(
      "Operator 'includes' can not be used on field 'Industry' of type Picklist",
    );
    expect(refusal('{ Regions__c: { like: "E%" } }').errorCode).toBe('INVALID_QUERY_FILTER_OPERATOR');
    expect(refusal('{ Regions__c: { includes: [1] } }').message).toContain('must be a string');
  });
});

describe('compileWhere: combinators', () => {
  it('ANDs the fields of one object, and the entries of and', () => {
    const both = compile('{ Name: { eq: "A" }, Industry: { eq: "B" } }');
    expect(both.text).toBe(
      `((lower(${NAME}) = lower($1::text)) AND (lower((r.fields ->> 'Industry')) = lower($2::text)))`,
    );
    expect(compile('{ and: [{ Name: { eq: "A" } }, { Industry: { eq: "B" } }] }')).toEqual(both);
  });

  it('ORs the entries of or and negates not', () => {
    expect(compile('{ or: [{ Name: { eq: "A" } }, { Name: { eq: "B" } }] }').text).toBe(
      `((lower(${NAME}) = lower($1::text)) OR (lower(${NAME}) = lower($2::text)))`,
    );
    expect(compile('{ not: { Name: { eq: "A" } } }').text).toBe(`(((lower(${NAME}) = lower($1::text))) IS NOT TRUE)`);
  });

  it('nests combinators and numbers the parameters in the order they appear', () => {
    const compiled = compile(
      '{ or: [{ and: [{ Name: { like: "A%" } }, { not: { Industry: { in: ["X"] } } }] }, { AnnualRevenue: { gte: 5 } }] }',
    );
    expect(compiled.values).toEqual(['A%', ['X'], 5]);
    expect(compiled.text.match(/\$\d+/g)).toEqual(['$1', '$2', '$3']);
  });

  it('treats an empty filter as no condition', () => {
    expect(compile('{}')).toEqual({ text: 'TRUE', values: [] });
    expect(compile('')).toEqual({ text: 'TRUE', values: [] });
  });

  it('starts its placeholders after the parameters already in the statement', () => {
    expect(
      compileWhere('{ Name: { eq: "A" }, AnnualRevenue: { gt: 1 } }', targetOf(ACCOUNT), {
        now: NOW,
        parameterOffset: 3,
        alias: 'a',
      }),
    ).toEqual({
      text: "((lower((a.fields ->> 'Name')) = lower($4::text)) AND ((CASE WHEN jsonb_typeof(a.fields -> 'AnnualRevenue') = 'number' THEN (a.fields ->> 'AnnualRevenue')::numeric END) > $5::numeric))",
      values: ['A', 1],
    });
  });

  it('accepts a filter built in code as well as text', () => {
    expect(compile({ Name: { eq: 'A' } })).toEqual(compile('{ Name: { eq: "A" } }'));
  });

  it.each([
    ['and with an object', '{ and: { Name: { eq: "A" } } }', "'and' takes a non-empty list of filter objects"],
    ['an empty or', '{ or: [] }', "'or' takes a non-empty list of filter objects"],
    ['or with a value', '{ or: ["A"] }', "'or' takes a non-empty list of filter objects"],
    ['not with a list', '{ not: [{ Name: { eq: "A" } }] }', "'not' takes one filter object"],
    ['a field without operators', '{ Name: {} }', "field 'Name' takes an object of operators"],
    [
      'a field with a bare value',
      '{ Name: "Acme" }',
      `field 'Name' takes an object of operators such as { eq: ... }, not "Acme"`,
    ],
  ])('refuses %s', (_name, where, problem) => {
    const error = refusal(where);
    expect(error.errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(error.message).toContain(problem);
  });

  it('refuses an unknown operator', () => {
    expect(refusal('{ Name: { equals: "A" } }').message).toBe(`Unknown operator "equals" on field 'Name'`);
  });
});

describe('compileWhere: fields, access and relationships', () => {
  it('finds fields whatever the case of their names', () => {
    expect(compile('{ name: { eq: "A" } }')).toEqual(compile('{ Name: { eq: "A" } }'));
  });

  it('refuses an unknown field and one the caller may not read with the same error', () => {
    const unknown = refusal('{ Nonexistent__c: { eq: "A" } }');
    const unreadable = refusal('{ Secret__c: { eq: "A" } }');
    expect(unknown.errorCode).toBe('INVALID_FIELD');
    expect(unreadable.errorCode).toBe('INVALID_FIELD');
    expect(unreadable.message).toBe(unknown.message.replace('Nonexistent__c', 'Secret__c'));
    expect(unreadable.message).toMatch(/^No such column 'Secret__c' on entity 'Account'/);
  });

  it('refuses fields that cannot be filtered', () => {
    expect(refusal('{ Description: { eq: "A" } }').message).toBe(
      "Field 'Description' can not be filtered in a query call",
    );
    expect(refusal('{ Logo__c: { eq: "A" } }').errorCode).toBe('INVALID_FIELD');
    expect(refusal('{ Rating__c: { eq: "A" } }').message).toBe("Field 'Rating__c' can not be filtered in a query call");
  });

  it('filters on a parent through a relationship, reading it with a subquery', () => {
    expect(compile('{ Account: { Name: { eq: "Acme" } } }', CONTACT)).toEqual({
      text: "(lower((SELECT (p1.fields ->> 'Name') FROM record p1 WHERE p1.id = (r.fields ->> 'AccountId') AND p1.object_api_name = $1::text)) = lower($2::text))",
      values: ['Account', 'Acme'],
    });
  });

  it('reuses one parent scope for all conditions on it', () => {
    const compiled = compile('{ Account: { Name: { eq: "Acme" }, AnnualRevenue: { gt: 1 } } }', CONTACT);
    expect(compiled.values).toEqual(['Account', 'Acme', 1]);
    expect(compiled.text.match(/p1\.object_api_name = \$1::text/g)).toHaveLength(2);
  });

  it("follows two relationships, and a parent's own system columns", () => {
    const compiled = compile(
      '{ Account: { Owner: { Name: { like: "Ann%" } }, CreatedDate: { gt: "2024-01-01T00:00:00Z" } } }',
      CONTACT,
    );
    expect(compiled.text).toContain(
      "(SELECT (p2.fields ->> 'Name') FROM record p2 WHERE p2.id = (SELECT (p1.fields ->> 'OwnerId') FROM record p1 WHERE p1.id = (r.fields ->> 'AccountId') AND p1.object_api_name = $1::text) AND p2.object_api_name = $2::text)",
    );
    expect(compiled.text).toContain('(SELECT p1.created_date FROM record p1');
    expect(compiled.values).toEqual(['Account', 'User', 'Ann%', '2024-01-01T00:00:00.000Z']);
  });

  it("applies the caller's visibility to the parent, so that a hidden parent reads as none", () => {
    const compiled = compile(
      '{ Account: { Name: { eq: "Acme" } } }',
      CONTACT,
      testAccess({ ownAccountsOnly: STANDARD_ID }),
    );
    expect(compiled.text).toContain(
      "p1.object_api_name = $1::text AND (p1.fields ->> 'OwnerId' = $2::text OR p1.created_by_id = $2::text)",
    );
    expect(compiled.values).toEqual(['Account', STANDARD_ID, 'Acme']);
  });

  it('follows at most 5 relationships', () => {
    const chain = (hops: number) =>
      `{ Account: ${'{ Parent: '.repeat(hops - 1)}{ Name: { eq: "A" } }${' }'.repeat(hops - 1)} }`;
    expect(compile(chain(5), CONTACT).values).toHaveLength(6);
    const error = refusal(chain(6), CONTACT);
    expect(error.errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(error.message).toBe('Account.Parent.Parent.Parent.Parent.Parent follows more than 5 relationships');
  });

  it('refuses a relationship to an object the caller may not read, and unknown relationships, like unknown fields', () => {
    expect(refusal('{ Vault: { Name: { eq: "A" } } }', CONTACT).message).toMatch(
      /^No such column 'Vault' on entity 'Contact'/,
    );
    expect(refusal('{ Account: { Secret__c: { eq: "A" } } }', CONTACT).message).toMatch(
      /^No such column 'Account.Secret__c' on entity 'Contact'/,
    );
    expect(refusal('{ Acount: { Name: { eq: "A" } } }', CONTACT).errorCode).toBe('INVALID_FIELD');
    expect(refusal('{ Account: { eq: "A" } }', CONTACT).message).toMatch(/^No such column 'Account.eq'/);
    expect(refusal('{ Account: "A" }', CONTACT).message).toContain("relationship 'Account' takes a filter object");
  });
});

describe('compileWhere: limits', () => {
  const nested = (levels: number) => `${'{ not: '.repeat(levels - 1)}{ Name: { eq: "A" } }${' }'.repeat(levels - 1)}`;

  it(`allows ${MAX_WHERE_DEPTH} levels of nesting and refuses more`, () => {
    expect(compile(nested(MAX_WHERE_DEPTH)).values).toEqual(['A']);
    const error = refusal(nested(MAX_WHERE_DEPTH + 1));
    expect(error.errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
    expect(error.message).toBe(
      `Illegal value for parameter 'where': filters nested deeper than ${MAX_WHERE_DEPTH} levels`,
    );
  });

  it(`allows ${MAX_WHERE_CONDITIONS} conditions and refuses more`, () => {
    const conditions = (n: number) =>
      `{ or: [${Array.from({ length: n - 1 }, (_, i) => `{ Name: { eq: "${i}" } }`).join(', ')}] }`;
    expect(compile(conditions(MAX_WHERE_CONDITIONS)).values).toHaveLength(MAX_WHERE_CONDITIONS - 1);
    expect(refusal(conditions(MAX_WHERE_CONDITIONS + 1)).message).toBe(
      `Illegal value for parameter 'where': more than ${MAX_WHERE_CONDITIONS} conditions`,
    );
  });

  it('counts every operator of a field', () => {
    const ops = Array.from({ length: MAX_WHERE_CONDITIONS + 1 }, (_, i) => `{ AnnualRevenue: { gt: ${i} } }`).join(' ');
    expect(refusal(`{ and: [${ops}] }`).errorCode).toBe('ILLEGAL_QUERY_PARAMETER_VALUE');
  });
});

describe('compileWhere: injection attempts', () => {
  const hostile = ["'); DROP TABLE record; --", '$1', "O'Brien", 'back\\slash\\', '"quoted"', "' OR '1'='1"];

  it.each(hostile)('passes %j only as a parameter', (value) => {
    for (const operator of ['eq', 'ne', 'like', 'gt']) {
      const compiled = compile({ Name: { [operator]: value } });
      // The statement is the same whatever the value: only the parameter differs.
      expect(compiled.text).toBe(compile({ Name: { [operator]: 'harmless' } }).text);
      expect(compiled.values).toEqual([operator === 'like' ? likePattern(value) : value]);
    }
    const listed = compile({ Name: { in: [value, 'x'] }, Regions__c: { includes: [value] } });
    expect(listed.text).toBe(compile({ Name: { in: ['harmless', 'x'] }, Regions__c: { includes: ['harmless'] } }).text);
    expect(listed.values).toEqual([[value, 'x'], value]);
  });

  it.each([`Name'); DROP TABLE record; --`, 'Name$1', 'Na\\me', 'Name"', "fields ->> 'Name'", 'Name.Id'])(
    'refuses the field name %j as unknown',
    (name) => {
      const error = refusal({ [name]: { eq: 'A' } });
      expect(error.errorCode).toBe('INVALID_FIELD');
    },
  );

  it('writes only metadata names into the SQL text', () => {
    const compiled = compile('{ Account: { Name: { eq: "x\' OR 1=1 --" } }, LastName: { like: "%\\\\%" } }', CONTACT);
    expect(compiled.text).not.toMatch(/OR 1=1|x'/);
    expect(compiled.values).toContain("x' OR 1=1 --");
  });
});
