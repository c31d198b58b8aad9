/**
 * The contract oracle of tests/support/contract.ts: it must accept what the contract allows and reject
 * what it does not, or every contract test that leans on it proves nothing.
 */
import { describe, expect, it } from 'vitest';
import {
  contract,
  contractResponse,
  expectValidResponse,
  expectValidSchema,
  operationsOf,
  resolveRef,
} from '../support/contract.ts';

type Json = Record<string, unknown>;
const card = {
  Id: 'a1C8d0000000002EAA',
  APT_Company_Name__c: 'Austin Electrical Supply Co.',
  APT_Address_1__c: '1 Main Street',
  APT_Address_2__c: null,
  APT_City__c: 'Austin',
  APT_Primary_State__c: 'Texas',
  APT_UI_Country__c: 'United States',
  APT_Zip__c: '78745',
  APT_Phone__c: '512-555-0147',
  APT_Email__c: 'sales@austin.example',
};

describe('the contract oracle', () => {
  it('accepts every named example of every response of the contract', () => {
    let checked = 0;
    for (const { operationId, operation } of operationsOf(contract)) {
      for (const status of Object.keys(operation.responses as Json)) {
        const { response } = contractResponse(operationId, Number(status));
        const media = (response.content as Record<string, Json> | undefined)?.['application/json'];
        for (const example of Object.values((media?.examples ?? {}) as Json)) {
          expectValidResponse(operationId, Number(status), resolveRef<{ value: unknown }>(contract, example).value);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('rejects a body with a missing, an extra or a mistyped property', () => {
    expectValidResponse('getContacts', 200, { contacts: [card], totalRecords: 1 });
    const { APT_Email__c: _dropped, ...missing } = card;
    expect(() => expectValidResponse('getContacts', 200, { contacts: [missing], totalRecords: 1 })).toThrow(
      /APT_Email__c/,
    );
    expect(() =>
      expectValidResponse('getContacts', 200, { contacts: [{ ...card, Name: 'CU-1' }], totalRecords: 1 }),
    ).toThrow(/additional/);
    expect(() => expectValidResponse('getContacts', 200, { contacts: [], totalRecords: '0' })).toThrow(/integer/);
    expect(() =>
      expectValidResponse('getContacts', 200, { contacts: [{ ...card, Id: 'short' }], totalRecords: 1 }),
    ).toThrow(/pattern/);
  });

  it('rejects error bodies of the wrong shape for the transport', () => {
    expectValidResponse('getContacts', 400, { errorMessage: 'Unknown country: Narnia' });
    expect(() => expectValidResponse('getContacts', 400, [{ errorCode: 'X', message: 'y' }])).toThrow();
    expectValidResponse('getObjectInfo', 404, [{ errorCode: 'NOT_FOUND', message: 'x' }]);
    expect(() => expectValidResponse('getObjectInfo', 404, { errorMessage: 'x' })).toThrow();
    expect(() => expectValidResponse('getObjectInfo', 404, [])).toThrow();
  });

  it('fails on a status the operation does not declare', () => {
    expect(() => expectValidResponse('getContacts', 404, { errorMessage: 'x' })).toThrow(/does not declare status 404/);
  });

  it('checks a JSON text against its contentSchema', () => {
    expectValidResponse('getDependentStatePicklistsValues', 200, JSON.stringify({ Canada: ['Ontario'] }));
    expect(() =>
      expectValidResponse('getDependentStatePicklistsValues', 200, JSON.stringify({ Canada: 'Ontario' })),
    ).toThrow(/contentSchema/);
    expect(() => expectValidResponse('getDependentStatePicklistsValues', 200, '{"Canada":')).toThrow(/does not parse/);
    expect(() => expectValidResponse('invokeApexCacheable', 200, JSON.stringify([1]))).toThrow(/contentSchema/);
  });

  it('validates the oneOf behind a discriminator rather than ignoring it', () => {
    const value = { attributes: null, label: 'New', validFor: [], value: 'New' };
    expectValidSchema('PicklistValueRepresentation', value);
    expectValidSchema('PicklistValueRepresentation', {
      ...value,
      attributes: { picklistAtrributesValueType: 'CaseStatus', closed: false },
    });
    expect(() =>
      expectValidSchema('PicklistValueRepresentation', {
        ...value,
        attributes: { picklistAtrributesValueType: 'CaseStatus' },
      }),
    ).toThrow();
    expect(() =>
      expectValidSchema('PicklistValueRepresentation', {
        ...value,
        attributes: { picklistAtrributesValueType: 'Nothing' },
      }),
    ).toThrow();
  });
});
