/**
 * The pure parts of the record engine: field-path parsing and depth cutting, selection by permission,
 * value checks by data type, the createable/updateable rules, representation building, record access.
 */
import { describe, expect, it } from 'vitest';
import type { DescribedObject, OrgDescribe } from '../../server/platform/core/describe.ts';
import { PlatformError } from '../../server/platform/core/errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../../server/platform/core/ids.ts';
import type { FieldDefinition } from '../../server/platform/core/definitions.ts';
import { profileNamed, type Principal } from '../../server/platform/core/principal.ts';
import { canDeleteRecord, canEditRecord, canSeeRecord } from '../../server/platform/records/access.ts';
import { operationType, batchItems } from '../../server/platform/records/batch.ts';
import {
  parseFieldLists,
  parseFieldPath,
  selectFields,
  selectionPaths,
  splitFieldList,
  withinDepth,
} from '../../server/platform/records/field-paths.ts';
import { childPageUrl } from '../../server/platform/records/child-records.ts';
import { buildRecord, labelsFor, recordPage, type RecordRow } from '../../server/platform/records/representation.ts';
import {
  autoNumberText,
  derivedValues,
  displayValueOf,
  normaliseValue,
  type ValueContext,
} from '../../server/platform/records/values.ts';
import { changedSince, picklistDefaults } from '../../server/platform/records/write.ts';
import {
  checkWrite,
  recordTypeForCreate,
  RecordWriteError,
  withoutRecordType,
  writableByDefinition,
} from '../../server/platform/records/write-rules.ts';

const f = (
  apiName: string,
  dataType: FieldDefinition['dataType'],
  more: Partial<FieldDefinition> = {},
): FieldDefinition => ({
  apiName,
  label: apiName,
  dataType,
  length: 80,
  ...more,
});
const system = [
  f('Id', 'String', { createable: false, updateable: false }),
  f('CreatedDate', 'DateTime', { createable: false, updateable: false }),
  f('CreatedById', 'Reference', {
    createable: false,
    updateable: false,
    referenceTo: ['User'],
    relationshipName: 'CreatedBy',
  }),
  f('LastModifiedDate', 'DateTime', { createable: false, updateable: false }),
  f('SystemModstamp', 'DateTime', { createable: false, updateable: false }),
];

function object(apiName: string, keyPrefix: string, fields: FieldDefinition[], sharingModel?: string): DescribedObject {
  const all = [...system, ...fields];
  return {
    apiName,
    definition: {
      apiName,
      label: apiName,
      labelPlural: `${apiName}s`,
      keyPrefix,
      custom: false,
      nameFields: ['Name'],
      themeInfo: null,
      flags: { createable: true, updateable: true, deletable: true },
      ...(sharingModel ? { sharingModel } : {}),
    } as DescribedObject['definition'],
    fields: all,
    fieldsByName: new Map(all.map((field) => [field.apiName, field])),
    recordTypes: [
      {
        id: MASTER_RECORD_TYPE_ID,
        name: 'Master',
        developerName: 'Master',
        isMaster: true,
        isDefault: true,
        available: true,
      },
    ],
    childRelationships: [],
  };
}

const USER = object('User', '005', [f('Name', 'String'), f('Email', 'Email')]);
const ACCOUNT = object(
  'Account',
  '001',
  [
    f('Name', 'String', { required: true }),
    f('Phone', 'Phone', { length: 12 }),
    f('OwnerId', 'Reference', { referenceTo: ['User'], relationshipName: 'Owner' }),
  ],
  'Private',
);
const CONTACT = object('Contact', '003', [
  f('Name', 'String', {
    calculated: true,
    createable: false,
    updateable: false,
    compoundOf: ['FirstName', 'LastName'],
  }),
  f('FirstName', 'String'),
  f('LastName', 'String', { required: true }),
  f('AccountId', 'Reference', { referenceTo: ['Account'], relationshipName: 'Account' }),
  f('Country', 'Picklist', { length: 255 }),
  f('State', 'Picklist', { length: 255, controllerName: 'Country' }),
  f('Brands', 'MultiPicklist', { length: 255 }),
  f('Active', 'Boolean', { length: 0 }),
  f('Employees', 'Int', { length: 0 }),
  f('Since', 'Date', { length: 0 }),
  f('Number', 'String', { calculated: true, createable: false, updateable: false, autoNumber: 'C-{0000}' }),
  f('CountryText', 'String', { calculated: true, createable: false, updateable: false, formula: 'TEXT(Country)' }),
]);
const ORG: OrgDescribe = {
  objects: new Map([USER, ACCOUNT, CONTACT].map((o) => [o.apiName, o])),
  byLowerName: new Map([USER, ACCOUNT, CONTACT].map((o) => [o.apiName.toLowerCase(), o])),
  byKeyPrefix: new Map([USER, ACCOUNT, CONTACT].map((o) => [o.definition.keyPrefix, o])),
  keyPrefixes: new Map([USER, ACCOUNT, CONTACT].map((o) => [o.apiName, o.definition.keyPrefix])),
};

const ADMIN: Principal = {
  userId: '0058d0000000001AAA',
  isGuest: false,
  profile: profileNamed('System Administrator'),
};
const STANDARD: Principal = { userId: '0058d0000000002AAA', isGuest: false, profile: profileNamed('Standard User') };
const GUEST: Principal = { userId: '0058d0000000003AAA', isGuest: true, profile: profileNamed('Contact Us Profile') };

const CONTEXT: ValueContext = {
  picklists: new Map([
    [
      'Country',
      {
        values: new Set(['Canada', 'United States']),
        validFor: new Map([
          ['Canada', []],
          ['United States', []],
        ]),
      },
    ],
    [
      'State',
      {
        values: new Set(['Ontario', 'Ohio']),
        validFor: new Map([
          ['Ontario', ['Canada']],
          ['Ohio', ['United States']],
        ]),
      },
    ],
    ['Brands', { values: new Set(['Arcline', 'Gridmark']), validFor: new Map() }],
  ]),
  keyPrefixes: new Map([
    ['User', '005'],
    ['Account', '001'],
    ['Contact', '003'],
  ]),
};

const errorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof RecordWriteError) return error.body.output;
    throw error;
  }
  throw new Error('expected a RecordWriteError');
};

describe('field paths', () => {
  it('splits lists and parses qualified paths', () => {
    expect(splitFieldList('A.B, A.C,,')).toEqual(['A.B', 'A.C']);
    expect(parseFieldPath('Contact.Account.Name')).toEqual({ objectApiName: 'Contact', names: ['Account', 'Name'] });
    expect(parseFieldPath('Name')).toBeNull();
    expect(parseFieldPath('Contact..Name')).toBeNull();
  });

  it('limits paths to 6 levels: required ones fail, optional ones are cut', () => {
    const six = parseFieldPath('A.B.C.D.E.F')!;
    const seven = parseFieldPath('A.B.C.D.E.F.G')!;
    expect(withinDepth(six)).toBe(true);
    expect(withinDepth(seven)).toBe(false);
    expect(() => parseFieldLists(['A.B.C.D.E.F.G'], [])).toThrow(PlatformError);
    expect(() => parseFieldLists(['Name'], [])).toThrow(/qualified/);
    expect(parseFieldLists([], ['A.B.C.D.E.F.G', 'A.B']).optional).toEqual([{ objectApiName: 'A', names: ['B'] }]);
  });

  it('resolves relationships case-insensitively and adds companion fields to related records', () => {
    const selection = selectFields(
      ORG,
      ADMIN,
      CONTACT,
      parseFieldLists(['contact.account.name'], ['Contact.Account.Owner.Email', 'Other.Name']),
    );
    expect(selectionPaths(selection)).toEqual(
      expect.arrayContaining([
        'Contact.Account.Name',
        'Contact.Account.Id',
        'Contact.Account.SystemModstamp',
        'Contact.Account.Owner.Email',
      ]),
    );
    expect(selectionPaths(selection).some((path) => path.startsWith('Other'))).toBe(false);
  });

  it('fails on unknown or unreadable required fields and leaves out optional ones', () => {
    expect(() => selectFields(ORG, ADMIN, CONTACT, parseFieldLists(['Contact.Nope'], []))).toThrow(/No such column/);
    const std = selectFields(
      ORG,
      STANDARD,
      CONTACT,
      parseFieldLists(['Contact.LastName'], ['Contact.CreatedBy.Email', 'Contact.Nope']),
    );
    expect(selectionPaths(std)).toEqual(['Contact.LastName']);
    expect(() => selectFields(ORG, STANDARD, CONTACT, parseFieldLists(['Contact.CreatedBy.Email'], []))).toThrow(
      /No such column/,
    );
    expect(() => selectFields(ORG, GUEST, CONTACT, parseFieldLists(['Contact.LastName'], []))).toThrow(
      /No such column/,
    );
  });
});

describe('ids', () => {
  it('converts 15-character ids and refuses bad suffixes', () => {
    expect(toId18('0018d0000000001')).toBe('0018d0000000001AAA');
    expect(toId18('0018d0000000001AAB')).toBeNull();
  });
});

describe('values by data type', () => {
  const field = (name: string) => CONTACT.fieldsByName.get(name)!;
  it.each([
    ['Employees', 12, 12],
    ['Active', null, false],
    ['Since', '2026-02-28', '2026-02-28'],
    ['Brands', 'Arcline;Gridmark', 'Arcline;Gridmark'],
    ['AccountId', '0018d0000000001', '0018d0000000001AAA'],
    ['LastName', '', null],
  ])('accepts %s = %j', (name, raw, stored) => {
    expect(normaliseValue(field(name), raw as never, CONTEXT)).toEqual({ value: stored });
  });

  it.each([
    ['Employees', 1.5, 'INVALID_TYPE_ON_FIELD_IN_RECORD'],
    ['Employees', '12', 'INVALID_TYPE_ON_FIELD_IN_RECORD'],
    ['Active', 'true', 'INVALID_TYPE_ON_FIELD_IN_RECORD'],
    ['Since', '2026-02-30', 'INVALID_TYPE_ON_FIELD_IN_RECORD'],
    ['Brands', 'Arcline;Nonesuch', 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST'],
    ['Brands', 'Arcline;Arcline', 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST'],
    ['AccountId', '0038d0000000001AAA', 'INVALID_CROSS_REFERENCE_KEY'],
    ['FirstName', 'x'.repeat(81), 'STRING_TOO_LONG'],
  ])('rejects %s = %j with %s', (name, raw, code) => {
    const result = normaliseValue(field(name), raw as never, CONTEXT);
    expect('error' in result && result.error.errorCode).toBe(code);
  });

  it('displays picklists and dates, not text', () => {
    expect(displayValueOf(field('Country'), 'Canada')).toBe('Canada');
    expect(displayValueOf(field('FirstName'), 'x')).toBeNull();
    expect(displayValueOf(field('Since'), '2026-02-28')).toBe('2/28/2026');
  });

  it('computes auto-numbers, TEXT() formulas and compound names', () => {
    expect(autoNumberText('CU-{000000}', 8)).toBe('CU-000008');
    expect(derivedValues(CONTACT.fields, { FirstName: null, LastName: 'Service Desk', Country: 'Canada' })).toEqual({
      Name: 'Service Desk',
      CountryText: 'Canada',
    });
  });
});

describe('createable and updateable rules', () => {
  it('knows computed and system fields are never written', () => {
    expect(writableByDefinition(CONTACT.fieldsByName.get('Number')!, 'create')).toBe(false);
    expect(writableByDefinition(CONTACT.fieldsByName.get('Id')!, 'update')).toBe(false);
    expect(writableByDefinition(CONTACT.fieldsByName.get('LastName')!, 'update')).toBe(true);
  });

  it('lists every problem of a create: unknown, read-only, missing required, bad dependent value', () => {
    const output = errorsOf(() =>
      checkWrite(ADMIN, CONTACT, 'create', { Nope: 1, Name: 'x', Country: 'Canada', State: 'Ohio' }, CONTEXT),
    );
    expect(output.errors.map((error) => error.errorCode)).toEqual(['INVALID_FIELD']);
    expect(
      Object.fromEntries(Object.entries(output.fieldErrors).map(([name, errors]) => [name, errors[0].errorCode])),
    ).toEqual({
      Name: 'INVALID_FIELD_FOR_INSERT_UPDATE',
      LastName: 'REQUIRED_FIELD_MISSING',
      State: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
    });
  });

  it('checks an update against the stored values, ignoring the Id', () => {
    expect(
      checkWrite(ADMIN, CONTACT, 'update', { Id: 'x', FirstName: 'Desk' }, CONTEXT, { LastName: 'Service' }).values,
    ).toEqual({ FirstName: 'Desk' });
    const cleared = errorsOf(() =>
      checkWrite(ADMIN, CONTACT, 'update', { LastName: null }, CONTEXT, { LastName: 'Service' }),
    );
    expect(cleared.fieldErrors.LastName[0].errorCode).toBe('REQUIRED_FIELD_MISSING');
    const moved = errorsOf(() =>
      checkWrite(ADMIN, CONTACT, 'update', { Country: 'United States' }, CONTEXT, {
        Country: 'Canada',
        State: 'Ontario',
      }),
    );
    expect(moved.fieldErrors.State[0].errorCode).toBe('INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST');
  });

  it('refuses fields the profile may not edit', () => {
    const contactUs = object('APT_Contact_Us__c', 'a1C', [f('APT_Default_Contact__c', 'Boolean', { length: 0 })]);
    const output = errorsOf(() => checkWrite(STANDARD, contactUs, 'update', { APT_Default_Contact__c: true }, CONTEXT));
    expect(output.fieldErrors.APT_Default_Contact__c[0]).toMatchObject({
      errorCode: 'INVALID_FIELD_FOR_INSERT_UPDATE',
      field: 'APT_Default_Contact__c',
    });
  });
});

describe('record types of new records', () => {
  const SUPPORT = '0128d0000000001AAA';
  const SALES = '0128d0000000002AAA';
  const RETIRED = '0128d0000000003AAA';
  const CASE: DescribedObject = {
    ...object('Case', '500', [f('Subject', 'String')]),
    recordTypes: [
      {
        id: MASTER_RECORD_TYPE_ID,
        name: 'Master',
        developerName: 'Master',
        isMaster: true,
        isDefault: false,
        available: false,
      },
      {
        id: SUPPORT,
        name: 'Product Support',
        developerName: 'Product_Support',
        isMaster: false,
        isDefault: true,
        available: true,
      },
      {
        id: SALES,
        name: 'Sales Inquiry',
        developerName: 'Sales_Inquiry',
        isMaster: false,
        isDefault: false,
        available: true,
      },
      { id: RETIRED, name: 'Retired', developerName: 'Retired', isMaster: false, isDefault: false, available: false },
    ],
  };
  const codeOf = (run: () => unknown) => errorsOf(run).fieldErrors.RecordTypeId?.[0]?.errorCode;

  it('takes RecordTypeId out of the fields, 15 or 18 characters, any case of the name; defaults to the default record type', () => {
    expect(recordTypeForCreate(CASE, { RecordTypeId: SALES, Subject: 'x' })).toEqual({
      recordTypeId: SALES,
      fields: { Subject: 'x' },
    });
    expect(recordTypeForCreate(CASE, { recordtypeid: SALES.slice(0, 15) }).recordTypeId).toBe(SALES);
    expect(recordTypeForCreate(CASE, { Subject: 'x' })).toEqual({ recordTypeId: SUPPORT, fields: { Subject: 'x' } });
    expect(recordTypeForCreate(CASE, { RecordTypeId: null }).recordTypeId).toBe(SUPPORT);
  });

  it('refuses record types the object does not offer: unknown, unavailable, master, not an id', () => {
    for (const bad of ['0128d0000000009AAA', RETIRED, MASTER_RECORD_TYPE_ID, 'Sales_Inquiry', 12]) {
      expect(codeOf(() => recordTypeForCreate(CASE, { RecordTypeId: bad as never }))).toBe(
        'INVALID_CROSS_REFERENCE_KEY',
      );
    }
  });

  it('leaves RecordTypeId to the field checks on objects without record types, and refuses changing it on update', () => {
    expect(recordTypeForCreate(ACCOUNT, { RecordTypeId: MASTER_RECORD_TYPE_ID })).toEqual({
      recordTypeId: MASTER_RECORD_TYPE_ID,
      fields: { RecordTypeId: MASTER_RECORD_TYPE_ID },
    });
    expect(withoutRecordType(CASE, { RecordTypeId: SALES, Subject: 'x' }, SALES)).toEqual({ Subject: 'x' });
    expect(codeOf(() => withoutRecordType(CASE, { RecordTypeId: SUPPORT }, SALES))).toBe(
      'INVALID_FIELD_FOR_INSERT_UPDATE',
    );
  });
});

describe('record access', () => {
  const row = (owner: string): RecordRow => ({
    id: '0018d0000000001AAA',
    object_api_name: 'Account',
    record_type_id: null,
    fields: { Name: 'Acme Supply', OwnerId: owner },
    created_date: '2026-01-01T00:00:00Z',
    created_by_id: owner,
    last_modified_date: '2026-01-02T00:00:00Z',
    last_modified_by_id: owner,
    system_modstamp: '2026-01-02T00:00:00.005Z',
  });
  it('shows private records to their owner and to profiles that view all', () => {
    expect(canSeeRecord(STANDARD, ACCOUNT, row(ADMIN.userId))).toBe(false);
    expect(canSeeRecord(STANDARD, ACCOUNT, row(STANDARD.userId))).toBe(true);
    expect(canSeeRecord(ADMIN, ACCOUNT, row(STANDARD.userId))).toBe(true);
    expect(canSeeRecord(GUEST, ACCOUNT, row(GUEST.userId))).toBe(false);
    expect(canEditRecord(STANDARD, CONTACT, { fields: {}, created_by_id: ADMIN.userId })).toBe(true);
    expect(canDeleteRecord(STANDARD, CONTACT, { fields: {}, created_by_id: ADMIN.userId })).toBe(false);
  });

  it('builds the representation: system fields, eTag, weakEtag, hidden related records as null', () => {
    const selection = selectFields(
      ORG,
      STANDARD,
      CONTACT,
      parseFieldLists(['Contact.LastName', 'Contact.Account.Name'], []),
    );
    const contact: RecordRow = {
      ...row(STANDARD.userId),
      id: '0038d0000000001AAA',
      object_api_name: 'Contact',
      fields: { LastName: 'Service Desk', AccountId: '0018d0000000001AAA' },
    };
    const context = (owner: string) => ({
      related: new Map([['0018d0000000001AAA', row(owner)]]),
      canSee: (r: RecordRow, o: DescribedObject) => canSeeRecord(STANDARD, o, r),
    });
    const visible = buildRecord(contact, selection, context(STANDARD.userId));
    expect(visible).toMatchObject({
      apiName: 'Contact',
      id: '0038d0000000001AAA',
      recordTypeId: MASTER_RECORD_TYPE_ID,
      recordTypeInfo: null,
      weakEtag: Date.parse('2026-01-02T00:00:00.005Z'),
    });
    expect(visible.fields.Account.displayValue).toBe('Acme Supply');
    expect(visible.eTag).toMatch(/^[0-9a-f]{32}$/);
    const hidden = buildRecord(contact, selection, context(ADMIN.userId));
    expect(hidden.fields.Account).toEqual({ displayValue: null, value: null });
    expect(hidden.eTag).not.toBe(visible.eTag);
  });

  it('pages with zero-based offset tokens', () => {
    const page = recordPage([], 12, 5, 5, (offset) => `/x?pageToken=${offset}`);
    expect(page).toMatchObject({
      currentPageToken: '5',
      nextPageToken: '10',
      previousPageToken: '0',
      nextPageUrl: '/x?pageToken=10',
      previousPageUrl: '/x?pageToken=0',
    });
    const last = recordPage([], 3, 0, 5, (offset) => `/x?pageToken=${offset}`);
    expect(last).toMatchObject({
      nextPageToken: null,
      nextPageUrl: null,
      previousPageToken: null,
      previousPageUrl: null,
      currentPageUrl: '/x?pageToken=0',
    });
  });

  it('links child pages to the Get Child Records resource, parameters in alphabetical order', () => {
    const url = childPageUrl('0018d0000000001AAA', 'Contacts', ['Contact.Id', 'Contact.Name'], 2);
    expect(url(4)).toBe(
      '/services/data/v65.0/ui-api/records/0018d0000000001AAA/child-relationships/Contacts?fields=Contact.Id%2CContact.Name&pageSize=2&pageToken=4',
    );
  });

  it('displays picklist values by their labels: the record type labels, else the master labels, else the value', () => {
    const COUNTRY = CONTACT.fieldsByName.get('Country')!;
    const labels = new Map([
      ['Contact/0128d0000000001AAA/Country', new Map([['CA', 'Canada (Sales)']])],
      [
        `Contact/${MASTER_RECORD_TYPE_ID}/Country`,
        new Map([
          ['CA', 'Canada'],
          ['MX', 'Mexico'],
        ]),
      ],
    ]);
    const labelOf = labelsFor(labels, 'Contact', '0128d0000000001AAA', 'Country');
    expect(displayValueOf(COUNTRY, 'CA', labelOf)).toBe('Canada (Sales)');
    expect(displayValueOf(COUNTRY, 'MX', labelOf)).toBe('Mexico');
    expect(displayValueOf(COUNTRY, 'US', labelOf)).toBe('US');
    expect(displayValueOf(CONTACT.fieldsByName.get('Brands')!, 'CA;MX;US', labelOf)).toBe('Canada (Sales);Mexico;US');
    const selection = selectFields(ORG, ADMIN, CONTACT, parseFieldLists(['Contact.Country', 'Contact.LastName'], []));
    const contact: RecordRow = {
      ...row(ADMIN.userId),
      id: '0038d0000000001AAA',
      object_api_name: 'Contact',
      record_type_id: '0128d0000000001AAA',
      fields: { LastName: 'Service Desk', Country: 'CA' },
    };
    const built = buildRecord(contact, selection, { related: new Map(), canSee: () => true, picklistLabels: labels });
    expect(built.fields.Country).toEqual({ displayValue: 'Canada (Sales)', value: 'CA' });
    expect(
      buildRecord({ ...contact, record_type_id: null }, selection, {
        related: new Map(),
        canSee: () => true,
        picklistLabels: labels,
      }).fields.Country.displayValue,
    ).toBe('Canada');
  });

  it('compares If-Unmodified-Since at whole seconds', () => {
    expect(changedSince('2026-11-21T14:05:12.900Z', new Date('Sat, 21 Nov 2026 14:05:12 GMT'))).toBe(false);
    expect(changedSince('2026-11-21T14:05:13.000Z', new Date('Sat, 21 Nov 2026 14:05:12 GMT'))).toBe(true);
  });
});

describe('batch input', () => {
  it('takes operation types in any case and checks each record', () => {
    expect(operationType('cReAtE')).toBe('CREATE');
    expect(operationType('UPSERT')).toBeNull();
    const items = batchItems({
      allOrNone: false,
      operations: [
        { type: 'delete', records: [{ fields: { Id: 'bad' } }, { fields: { Id: '0018d0000000001' } }] },
        { type: 'create', records: [{ fields: {} }] },
      ],
    });
    expect(items.map((item) => item.error?.statusCode ?? item.id)).toEqual([400, '0018d0000000001AAA', 400]);
    expect(() =>
      batchItems({
        allOrNone: false,
        operations: [
          {
            type: 'DELETE',
            records: [{ fields: { Id: '0018d0000000001' } }, { fields: { Id: '0018d0000000001AAA' } }],
          },
        ],
      }),
    ).toThrow(/one operation only/);
  });
});

describe('picklistDefaults', () => {
  const TICKET = object('Ticket__c', 'a9T', [
    f('Status__c', 'Picklist'),
    f('Kind__c', 'Picklist'),
    f('Reason__c', 'Picklist', { controllerName: 'Kind__c' }),
    f('Stage__c', 'Picklist', { createable: false }),
    f('Subject__c', 'String'),
  ]);
  const rule = (values: string[], defaultValue?: string, validFor: Record<string, string[]> = {}) => ({
    values: new Set(values),
    validFor: new Map(values.map((value) => [value, validFor[value] ?? []])),
    defaultValue,
  });
  const context: ValueContext = {
    keyPrefixes: new Map(),
    picklists: new Map([
      ['Status__c', rule(['Open', 'Closed'], 'Open')],
      ['Kind__c', rule(['Fault', 'Order'], 'Fault')],
      ['Reason__c', rule(['Breaker', 'Quote'], 'Breaker', { Breaker: ['Fault'], Quote: ['Order'] })],
      ['Stage__c', rule(['One'], 'One')],
    ]),
  };

  it('defaults every createable picklist the input does not name, in any case of its name', () => {
    expect(picklistDefaults(TICKET, { subject__c: 'x', status__c: 'Closed' }, context)).toEqual({
      Kind__c: 'Fault',
      Reason__c: 'Breaker',
    });
  });

  it('defaults a dependent picklist only when its default is valid for the controlling value, given or defaulted', () => {
    expect(picklistDefaults(TICKET, { Kind__c: 'Order' }, context)).toEqual({ Status__c: 'Open' });
    expect(picklistDefaults(TICKET, { Kind__c: 'Fault' }, context)).toEqual({
      Status__c: 'Open',
      Reason__c: 'Breaker',
    });
    expect(picklistDefaults(TICKET, {}, context)).toEqual({
      Status__c: 'Open',
      Kind__c: 'Fault',
      Reason__c: 'Breaker',
    });
  });

  it('gives nothing for picklists without a default', () => {
    expect(
      picklistDefaults(TICKET, {}, { keyPrefixes: new Map(), picklists: new Map([['Status__c', rule(['Open'])]]) }),
    ).toEqual({});
  });

  it('defaults a multi-select picklist too', () => {
    const tagged = object('Tagged__c', 'a9U', [f('Tags__c', 'MultiPicklist')]);
    expect(
      picklistDefaults(
        tagged,
        {},
        { keyPrefixes: new Map(), picklists: new Map([['Tags__c', rule(['Red', 'Blue'], 'Blue')]]) },
      ),
    ).toEqual({
      Tags__c: 'Blue',
    });
  });
});
