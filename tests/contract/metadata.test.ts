/**
 * Metadata of the record API over real HTTP, on every test database: getObjectInfo and getPicklistValues,
 * checked against the contract and against what the storefront's own methods say.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apexUrl,
  BRANDS,
  CARD_FIELDS,
  CONTACT_US,
  CONTROLLER,
  MASTER_RECORD_TYPE_ID,
  NOT_FOUND_BODY,
  UI_API,
} from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import type { components } from '../../generated/types.ts';

type ErrorItem = components['schemas']['ErrorRepresentation'];
type PicklistValues = components['schemas']['PicklistValuesRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

describe.each(databases())('metadata on %s', (kind) => {
  let server: TestServer;
  const objectInfo = (name: string) =>
    callOperation<ObjectInfo | ErrorItem[]>('getObjectInfo', `${server.baseUrl}${UI_API}/object-info/${name}`);
  const picklist = (recordTypeId: string, field: string, object = CONTACT_US) =>
    callOperation<PicklistValues | ErrorItem[]>(
      'getPicklistValues',
      `${server.baseUrl}${UI_API}/object-info/${object}/picklist-values/${recordTypeId}/${field}`,
    );

  beforeAll(async () => {
    server = await startTestServer({ database: kind, demoContacts: 10 });
  });
  afterAll(() => server?.close());

  describe('getObjectInfo', () => {
    it('describes the Contact Us object: key prefix, master record type, card fields, the country-state dependency', async () => {
      const { status, body, headers } = await objectInfo(CONTACT_US);
      expect(status).toBe(200);
      const info = body as ObjectInfo;
      expect(info.apiName).toBe(CONTACT_US);
      expect(info.keyPrefix).toBe('a1C');
      expect(info.defaultRecordTypeId).toBe(MASTER_RECORD_TYPE_ID);
      expect(info.recordTypeInfos[MASTER_RECORD_TYPE_ID]).toMatchObject({
        master: true,
        recordTypeId: MASTER_RECORD_TYPE_ID,
        defaultRecordTypeMapping: true,
        available: true,
      });
      for (const field of [...CARD_FIELDS, 'APT_Country__c', 'APT_Brand__c', 'Name'])
        expect(info.fields[field]?.apiName, field).toBe(field);
      expect(info.fields.APT_Brand__c.dataType).toBe('MultiPicklist');
      expect(info.fields.APT_Primary_State__c).toMatchObject({
        dataType: 'Picklist',
        controllerName: 'APT_Country__c',
        controllingFields: ['APT_Country__c'],
      });
      expect(info.dependentFields).toEqual({ APT_Country__c: { APT_Primary_State__c: {} } });
      expect(info.eTag).toMatch(/^[0-9a-f]{32}$/);
      expect(headers.get('etag')).toBe(`"${info.eTag}"`);
    });

    it('finds the object whatever the case of its name, under its own name', async () => {
      const { status, body } = await objectInfo(CONTACT_US.toLowerCase());
      expect(status).toBe(200);
      expect((body as ObjectInfo).apiName).toBe(CONTACT_US);
    });

    it('answers 404 with an error list to an object that does not exist', async () => {
      const { status, body } = await objectInfo('No_Such_Object__c');
      expect(status).toBe(404);
      expect(body).toEqual([
        { errorCode: 'INSUFFICIENT_ACCESS', message: expect.stringContaining("You don't have access") },
      ]);
    });

    it('answers 400 with an error list to a name that cannot be an object name', async () => {
      const { status, body } = await objectInfo('1-not-a-name');
      expect(status).toBe(400);
      expect(body).toEqual([{ errorCode: expect.any(String), message: expect.stringContaining('objectApiName') }]);
    });
  });

  describe('getPicklistValues', () => {
    it('lists the brands in order, with no controller and no default', async () => {
      const { status, body } = await picklist(MASTER_RECORD_TYPE_ID, 'APT_Brand__c');
      expect(status).toBe(200);
      const values = body as PicklistValues;
      expect(values.values.map((value) => value.value)).toEqual(BRANDS);
      expect(values.values.map((value) => value.label)).toEqual(BRANDS);
      expect(values.values.every((value) => value.validFor.length === 0 && value.attributes === null)).toBe(true);
      expect(values.controllerValues).toEqual({});
      expect(values.defaultValue).toBeNull();
      expect(values.url).toBe(
        `${UI_API}/object-info/${CONTACT_US}/picklist-values/${MASTER_RECORD_TYPE_ID}/APT_Brand__c`,
      );
    });

    it('gives the states controllerValues and validFor that agree with getDependentStatePicklistsValues', async () => {
      const dependent = await callOperation<string>(
        'getDependentStatePicklistsValues',
        apexUrl(server.baseUrl, CONTROLLER, 'getDependentStatePicklistsValues'),
      );
      const map = JSON.parse(dependent.body) as Record<string, string[]>;
      const countries = (await picklist(MASTER_RECORD_TYPE_ID, 'APT_Country__c')).body as PicklistValues;
      const states = (await picklist(MASTER_RECORD_TYPE_ID, 'APT_Primary_State__c')).body as PicklistValues;

      expect(countries.values.map((value) => value.value)).toEqual(Object.keys(map));
      // controllerValues: each country with its index in the country picklist.
      expect(states.controllerValues).toEqual(
        Object.fromEntries(countries.values.map((value, index) => [value.value, index])),
      );
      const countryAt = Object.fromEntries(
        Object.entries(states.controllerValues).map(([country, index]) => [index, country]),
      );
      // validFor, read back through controllerValues, is the same relation as the country-to-states map.
      const fromValidFor: Record<string, string[]> = Object.fromEntries(
        Object.keys(map).map((country) => [country, []]),
      );
      for (const state of states.values) {
        expect(state.validFor.length, state.value).toBeGreaterThan(0);
        for (const index of state.validFor) fromValidFor[countryAt[index]].push(state.value);
      }
      expect(fromValidFor).toEqual(map);
      const texas = states.values.find((value) => value.value === 'Texas')!;
      expect(texas.validFor.map((index) => countryAt[index])).toEqual(['United States']);
    });

    it('accepts the 15-character record type id and answers as for the 18-character one', async () => {
      const short = await picklist(MASTER_RECORD_TYPE_ID.slice(0, 15), 'APT_Brand__c');
      const long = await picklist(MASTER_RECORD_TYPE_ID, 'APT_Brand__c');
      expect(short.status).toBe(200);
      expect(short.body).toEqual(long.body);
      expect(short.headers.get('etag')).toBe(long.headers.get('etag'));
    });

    describe('answers 400 INVALID_ID_FIELD to a record type id that is not one', () => {
      it.each([
        ['not an id at all', 'xyz'],
        ['a wrong case-safe suffix', '012000000000000XYZ'],
        ['the id of another kind of record', '001000000000000AAA'],
      ])('%s', async (_name, recordTypeId) => {
        const { status, body } = await picklist(recordTypeId, 'APT_Brand__c');
        expect(status).toBe(400);
        expect(body).toEqual([{ errorCode: 'INVALID_ID_FIELD', message: expect.stringContaining(recordTypeId) }]);
      });
    });

    describe('answers 404 NOT_FOUND to', () => {
      it.each([
        ['an unknown field', MASTER_RECORD_TYPE_ID, 'No_Such_Field__c'],
        ['a field that is not a picklist', MASTER_RECORD_TYPE_ID, 'APT_City__c'],
        ['a record type the object does not have', '012000000000001AAA', 'APT_Brand__c'],
      ])('%s', async (_name, recordTypeId, field) => {
        const { status, body } = await picklist(recordTypeId, field);
        expect(status).toBe(404);
        expect(body).toEqual(NOT_FOUND_BODY);
      });
    });

    it('answers 404 with an error list for an object that does not exist', async () => {
      const { status, body } = await picklist(MASTER_RECORD_TYPE_ID, 'APT_Brand__c', 'No_Such_Object__c');
      expect(status).toBe(404);
      expect((body as ErrorItem[])[0].errorCode).toBe('INSUFFICIENT_ACCESS');
    });
  });
});
