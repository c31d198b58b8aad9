/**
 * Org metadata beyond the Contact Us object, over real HTTP on every test database: the object directory,
 * batches of object infos, record types with their own picklist values, dependent picklists with
 * controllerValues and validFor, picklist attributes, child relationships, and what each profile sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_US, MASTER_RECORD_TYPE_ID, NOT_FOUND_BODY, UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';
import type { components } from '../../generated/types.ts';

type ErrorItem = components['schemas']['ErrorRepresentation'];
type PicklistValues = components['schemas']['PicklistValuesRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

const PRODUCT_SUPPORT = '0128d0000000001AAA';
const SALES_INQUIRY = '0128d0000000002AAA';

describe.each(databases())('org metadata on %s', (kind) => {
  let server: TestServer;
  let admin: TestSession;
  let standard: TestSession;
  const get = <T>(
    operationId: string,
    path: string,
    session: TestSession | null = admin,
    headers: Record<string, string> = {},
  ) =>
    callOperation<T | ErrorItem[]>(operationId, `${server.baseUrl}${UI_API}${path}`, {
      headers: { ...(session?.headers ?? {}), ...headers },
    });
  const objectInfo = (name: string, session: TestSession | null = admin) =>
    get<ObjectInfo>('getObjectInfo', `/object-info/${name}`, session);
  const picklists = (
    object: string,
    recordTypeId: string,
    session: TestSession | null = admin,
    headers: Record<string, string> = {},
  ) =>
    get<{ eTag: string; picklistFieldValues: Record<string, PicklistValues> }>(
      'getPicklistValuesByRecordType',
      `/object-info/${object}/picklist-values/${recordTypeId}`,
      session,
      headers,
    );
  const picklist = (object: string, recordTypeId: string, field: string, session: TestSession | null = admin) =>
    get<PicklistValues>(
      'getPicklistValues',
      `/object-info/${object}/picklist-values/${recordTypeId}/${field}`,
      session,
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 0 });
    admin = await signIn(server, 'admin');
    standard = await signIn(server, 'standard');
  });
  afterAll(() => server?.close());

  describe('getObjectInfoDirectory', () => {
    it('lists every object the caller may read, each with the path of its metadata', async () => {
      const { status, body, headers } = await get<{
        objects: Record<string, { apiName: string; keyPrefix: string; objectInfoUrl: string }>;
      }>('getObjectInfoDirectory', '/object-info');
      expect(status).toBe(200);
      const { objects } = body as {
        objects: Record<string, { apiName: string; keyPrefix: string; objectInfoUrl: string }>;
      };
      for (const name of [CONTACT_US, 'Case', 'ContentDocument', 'ContentVersion', 'User'])
        expect(objects[name]?.apiName, name).toBe(name);
      expect(objects.Case).toMatchObject({ keyPrefix: '500', objectInfoUrl: `${UI_API}/object-info/Case` });
      expect(headers.get('etag')).toBeTruthy();
      expect(
        (await get('getObjectInfoDirectory', '/object-info', admin, { 'If-None-Match': headers.get('etag')! })).status,
      ).toBe(304);
    });

    it('answers 401 to a guest', async () => {
      expect((await get('getObjectInfoDirectory', '/object-info', null)).status).toBe(401);
    });
  });

  describe('getObjectInfo', () => {
    it('describes an object with record types: the master one unavailable, the default one mapped', async () => {
      const info = (await objectInfo('Case')).body as ObjectInfo;
      expect(info.defaultRecordTypeId).toBe(PRODUCT_SUPPORT);
      expect(info.recordTypeInfos[PRODUCT_SUPPORT]).toEqual({
        available: true,
        defaultRecordTypeMapping: true,
        master: false,
        name: 'Product Support',
        recordTypeId: PRODUCT_SUPPORT,
      });
      expect(info.recordTypeInfos[SALES_INQUIRY]).toMatchObject({
        defaultRecordTypeMapping: false,
        name: 'Sales Inquiry',
      });
      expect(info.recordTypeInfos[MASTER_RECORD_TYPE_ID]).toMatchObject({ master: true, available: false });
      expect(info.dependentFields).toEqual({ Type: { Reason: {} } });
      expect(info.fields.Reason.controllerName).toBe('Type');
      expect(info.fields.AccountId.referenceToInfos).toEqual([
        { apiName: 'Account', nameFields: expect.arrayContaining(['Name']) },
      ]);
      expect(info.fields.OwnerId.referenceToInfos[0].apiName).toBe('User');
    });

    it('lists the child relationships other objects declare on their reference fields', async () => {
      const document = (await objectInfo('ContentDocument')).body as ObjectInfo;
      expect(document.childRelationships).toEqual(
        expect.arrayContaining([
          {
            childObjectApiName: 'ContentVersion',
            fieldName: 'ContentDocumentId',
            junctionIdListNames: [],
            junctionReferenceTo: [],
            relationshipName: 'ContentVersions',
          },
          {
            childObjectApiName: 'ContentDocumentLink',
            fieldName: 'ContentDocumentId',
            junctionIdListNames: [],
            junctionReferenceTo: [],
            relationshipName: 'ContentDocumentLinks',
          },
        ]),
      );
      const version = (await objectInfo('ContentVersion')).body as ObjectInfo;
      expect(version.fields.FirstPublishLocationId.polymorphicForeignKey).toBe(true);
      expect(Object.keys(version.fields)).toEqual(
        expect.arrayContaining([
          'ContentDocumentId',
          'VersionData',
          'PathOnClient',
          'FileExtension',
          'VersionNumber',
          'IsLatest',
          'Title',
        ]),
      );
    });

    it('shows each profile its own permissions: fields it may not read are absent, those it may not edit read-only', async () => {
      const adminUser = (await objectInfo('User', admin)).body as ObjectInfo;
      const standardUser = (await objectInfo('User', standard)).body as ObjectInfo;
      expect(adminUser.fields.Email).toBeDefined();
      expect(standardUser.fields.Email).toBeUndefined();
      const standardContactUs = (await objectInfo(CONTACT_US, standard)).body as ObjectInfo;
      expect(standardContactUs.fields.APT_Default_Contact__c).toMatchObject({ createable: false, updateable: false });
      expect(((await objectInfo(CONTACT_US, admin)).body as ObjectInfo).fields.APT_Default_Contact__c).toMatchObject({
        createable: true,
        updateable: true,
      });
      expect(standardContactUs.eTag).not.toBe(((await objectInfo(CONTACT_US, admin)).body as ObjectInfo).eTag);
    });

    it('gives a guest the Contact Us object read-only, and nothing else', async () => {
      const guestView = await objectInfo(CONTACT_US, null);
      expect(guestView.status).toBe(200);
      expect(guestView.body).toMatchObject({ createable: false, updateable: false, deletable: false });
      const hidden = await objectInfo('Case', null);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual((await objectInfo('No_Such_Object__c', null)).body);
    });
  });

  describe('getObjectInfos', () => {
    it('answers one result per name, in order, failing only the items the caller may not see', async () => {
      const { status, body } = await get<{ results: { statusCode: number; result: unknown }[] }>(
        'getObjectInfos',
        `/object-info/batch/Case,${CONTACT_US},No_Such_Object__c,user`,
      );
      expect(status).toBe(200);
      const { results } = body as { results: { statusCode: number; result: ObjectInfo | ErrorItem[] }[] };
      expect(results.map((result) => result.statusCode)).toEqual([200, 200, 403, 200]);
      expect((results[0].result as ObjectInfo).apiName).toBe('Case');
      expect((results[3].result as ObjectInfo).apiName).toBe('User');
      expect(results[2].result).toEqual([
        { errorCode: 'FORBIDDEN', message: expect.stringContaining("You don't have access") },
      ]);
      expect(results[0].result).toEqual((await objectInfo('Case')).body);
    });

    it('answers 400 to a list that is not a list of names, and 401 to a guest', async () => {
      const bad = await get('getObjectInfos', '/object-info/batch/Case,,User');
      expect(bad.status).toBe(400);
      expect((bad.body as ErrorItem[])[0].message).toContain('objectApiNames');
      expect((await get('getObjectInfos', `/object-info/batch/${CONTACT_US}`, null)).status).toBe(401);
    });

    it('answers 400 to more than 100 objects at once, and serves 100', async () => {
      const names = (count: number) => Array.from({ length: count }, () => 'Case').join(',');
      const tooMany = await get('getObjectInfos', `/object-info/batch/${names(101)}`);
      expect(tooMany.status).toBe(400);
      expect((tooMany.body as ErrorItem[])[0]).toEqual({
        errorCode: 'ILLEGAL_QUERY_PARAMETER_VALUE',
        message: expect.stringContaining('101'),
      });
      const enough = await get<{ results: unknown[] }>('getObjectInfos', `/object-info/batch/${names(100)}`);
      expect(enough.status).toBe(200);
      expect((enough.body as { results: unknown[] }).results).toHaveLength(100);
    });
  });

  describe('picklist values by record type', () => {
    it('gives each record type its own subset and defaults; the master record type has every value', async () => {
      const support = (await picklists('Case', PRODUCT_SUPPORT)).body as {
        picklistFieldValues: Record<string, PicklistValues>;
      };
      const sales = (await picklists('Case', SALES_INQUIRY)).body as {
        picklistFieldValues: Record<string, PicklistValues>;
      };
      const master = (await picklists('Case', MASTER_RECORD_TYPE_ID)).body as {
        picklistFieldValues: Record<string, PicklistValues>;
      };
      expect(Object.keys(support.picklistFieldValues).sort()).toEqual([
        'Origin',
        'Priority',
        'Reason',
        'Status',
        'Type',
      ]);
      expect(support.picklistFieldValues.Type.values.map((value) => value.value)).toEqual([
        'Problem',
        'Question',
        'Feature Request',
      ]);
      expect(sales.picklistFieldValues.Type.values.map((value) => value.value)).toEqual(['Question', 'Pricing']);
      expect(master.picklistFieldValues.Type.values.map((value) => value.value)).toEqual([
        'Problem',
        'Question',
        'Feature Request',
        'Pricing',
      ]);
      expect(sales.picklistFieldValues.Status.values.map((value) => value.value)).toEqual(['New', 'Working', 'Closed']);
      expect(support.picklistFieldValues.Priority.defaultValue?.value).toBe('Medium');
      expect(sales.picklistFieldValues.Priority.defaultValue?.value).toBe('Low');
      expect(sales.picklistFieldValues.Origin.defaultValue?.value).toBe('Web');
      expect(support.picklistFieldValues.Origin.defaultValue).toBeNull();
      expect(sales.picklistFieldValues.Reason.url).toBe(
        `${UI_API}/object-info/Case/picklist-values/${SALES_INQUIRY}/Reason`,
      );
    });

    it('indexes a dependent picklist into its controller values of the same record type', async () => {
      for (const recordTypeId of [PRODUCT_SUPPORT, SALES_INQUIRY, MASTER_RECORD_TYPE_ID]) {
        const { picklistFieldValues } = (await picklists('Case', recordTypeId)).body as {
          picklistFieldValues: Record<string, PicklistValues>;
        };
        const types = picklistFieldValues.Type.values.map((value) => value.value);
        const reason = picklistFieldValues.Reason;
        expect(reason.controllerValues).toEqual(Object.fromEntries(types.map((type, index) => [type, index])));
        // The single-field operation answers the same.
        expect((await picklist('Case', recordTypeId, 'Reason')).body).toEqual(reason);
      }
      const sales = (await picklist('Case', SALES_INQUIRY, 'Reason')).body as PicklistValues;
      const typeAt = Object.fromEntries(Object.entries(sales.controllerValues).map(([type, index]) => [index, type]));
      const feedback = sales.values.find((value) => value.value === 'Feedback')!;
      // Feedback goes with Feature Request and Question; Sales Inquiry offers only Question of the two.
      expect(feedback.validFor.map((index) => typeAt[index])).toEqual(['Question']);
      const quote = sales.values.find((value) => value.value === 'Quote Request')!;
      expect(quote.validFor.map((index) => typeAt[index])).toEqual(['Pricing']);
      const breakdown = sales.values.find((value) => value.value === 'Breakdown')!;
      expect(breakdown.validFor).toEqual([]);
    });

    it('gives case statuses their CaseStatus attributes, and other values none', async () => {
      const status = (await picklist('Case', PRODUCT_SUPPORT, 'Status')).body as PicklistValues;
      expect(status.values.find((value) => value.value === 'Closed')!.attributes).toEqual({
        picklistAtrributesValueType: 'CaseStatus',
        closed: true,
      });
      expect(status.values.find((value) => value.value === 'New')!.attributes).toEqual({
        picklistAtrributesValueType: 'CaseStatus',
        closed: false,
      });
      expect(status.defaultValue?.value).toBe('New');
      const priority = (await picklist('Case', PRODUCT_SUPPORT, 'Priority')).body as PicklistValues;
      expect(priority.values.every((value) => value.attributes === null)).toBe(true);
    });

    it('sets the ETag header to the body eTag and answers 304 to If-None-Match', async () => {
      const first = await picklists(CONTACT_US, MASTER_RECORD_TYPE_ID);
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBe(`"${(first.body as { eTag: string }).eTag}"`);
      expect(Object.keys((first.body as { picklistFieldValues: object }).picklistFieldValues).sort()).toEqual([
        'APT_Brand__c',
        'APT_Country__c',
        'APT_Primary_State__c',
      ]);
      expect(
        (await picklists(CONTACT_US, MASTER_RECORD_TYPE_ID, admin, { 'If-None-Match': first.headers.get('etag')! }))
          .status,
      ).toBe(304);
    });

    it('leaves out the picklists a profile may not read', async () => {
      const adminUser = (await picklists('User', MASTER_RECORD_TYPE_ID, admin)).body as {
        picklistFieldValues: Record<string, unknown>;
      };
      expect(Object.keys(adminUser.picklistFieldValues)).toContain('UserType');
    });

    describe('answers errors in the platform shape', () => {
      it('400 to a record type id that is not one', async () => {
        const { status, body } = await picklists('Case', '001000000000000AAA');
        expect(status).toBe(400);
        expect(body).toEqual([
          { errorCode: 'INVALID_ID_FIELD', message: expect.stringContaining('001000000000000AAA') },
        ]);
      });
      it('404 to a record type of another object', async () => {
        const { status, body } = await picklists(CONTACT_US, SALES_INQUIRY);
        expect(status).toBe(404);
        expect(body).toEqual(NOT_FOUND_BODY);
      });
      it('404 to an unknown object', async () => {
        const { status, body } = await picklists('No_Such_Object__c', MASTER_RECORD_TYPE_ID);
        expect(status).toBe(404);
        expect((body as ErrorItem[])[0].errorCode).toBe('INSUFFICIENT_ACCESS');
      });
      it('401 to a guest', async () => {
        expect((await picklists(CONTACT_US, MASTER_RECORD_TYPE_ID, null)).status).toBe(401);
      });
    });
  });
});
