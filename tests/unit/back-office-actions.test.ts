/**
 * The back office's record actions, their pure parts: the buttons and the "More actions" menu made from the
 * actions the API offered (each once, only those offered, only the quick actions the page can run), whether
 * an action updates the record, and what a copy of a record sends besides its form's values.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { cloneFieldsOf, type FormSection } from '../../web/src/lightning/form/form-model.ts';
import { recordActionsOf, updatesRecord } from '../../web/src/lightning/record/record-actions.ts';

type PlatformAction = components['schemas']['PlatformActionRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

const ID = 'a1C8d0000000001EAA';

function action(apiName: string, type: string, extra: Partial<PlatformAction> = {}): PlatformAction {
  return {
    actionListContext: 'Record',
    actionTarget: null,
    actionTargetType: type === 'QuickAction' ? 'Describe' : 'Invoke',
    apiName,
    externalId: apiName,
    iconUrl: null,
    id: '0JV000000000000AAA',
    isMassAction: 'false',
    label: apiName.split('.').at(-1)!.replace(/_/g, ' '),
    primaryColor: null,
    relatedListRecordId: null,
    relatedSourceObject: null,
    section: 'Page',
    sourceObject: ID,
    subtype: null,
    targetObject: 'APT_Contact_Us__c',
    targetUrl: null,
    type,
    ...extra,
  };
}

describe('a record’s actions', () => {
  it('makes the standard buttons and the quick actions of the menu from what the API offered, each once', () => {
    const { buttons, quickActions } = recordActionsOf([
      action('Edit', 'StandardButton'),
      action('Delete', 'StandardButton'),
      action('Clone', 'StandardButton'),
      action('ChangeOwner', 'StandardButton'),
      action('APT_Contact_Us__c.New_Contact', 'QuickAction', { subtype: 'Create' }),
      action('APT_Contact_Us__c.Update_Phone', 'QuickAction', { subtype: 'Update' }),
      action('APT_Contact_Us__c.Update_Phone', 'QuickAction', { subtype: 'Update', section: 'SingleActionLinks' }),
      action('Contact.Log_A_Call', 'QuickAction', { subtype: 'LogACall', targetObject: 'Case' }),
      action('Contact.Send_Email', 'QuickAction', { subtype: 'SendEmail', targetObject: 'EmailMessage' }),
    ]);
    expect([...buttons]).toEqual(['Edit', 'Delete', 'Clone', 'ChangeOwner']);
    expect(quickActions).toEqual([
      {
        apiName: 'APT_Contact_Us__c.New_Contact',
        label: 'New Contact',
        subtype: 'Create',
        targetObject: 'APT_Contact_Us__c',
      },
      {
        apiName: 'APT_Contact_Us__c.Update_Phone',
        label: 'Update Phone',
        subtype: 'Update',
        targetObject: 'APT_Contact_Us__c',
      },
      { apiName: 'Contact.Log_A_Call', label: 'Log A Call', subtype: 'LogACall', targetObject: 'Case' },
    ]);
  });

  it('adds nothing the API did not offer', () => {
    const { buttons, quickActions } = recordActionsOf([action('Edit', 'StandardButton')]);
    expect([...buttons]).toEqual(['Edit']);
    expect(quickActions).toEqual([]);
    expect(recordActionsOf(undefined)).toEqual({ buttons: new Set(), quickActions: [] });
  });

  it('runs an Update action as an update, any other as a create', () => {
    expect(updatesRecord({ subtype: 'Update' })).toBe(true);
    expect(updatesRecord({ subtype: 'Create' })).toBe(false);
    expect(updatesRecord({ subtype: 'LogACall' })).toBe(false);
  });
});

describe('a copy of a record', () => {
  const field = (apiName: string, dataType: string) => ({
    apiName,
    label: apiName,
    dataType,
    editable: dataType !== 'Reference',
    required: false,
    maxLength: 0,
    controllerName: null,
  });
  const sections = [
    {
      key: 's1',
      heading: 'Information',
      columns: 2,
      fields: [field('LastName', 'String'), field('AccountId', 'Reference'), field('ReportsToId', 'Reference')],
    },
  ] as FormSection[];
  const objectInfo = (recordTypes: Record<string, { master: boolean }>, reportsToCreateable = false) =>
    ({
      fields: {
        LastName: { dataType: 'String', createable: true },
        AccountId: { dataType: 'Reference', createable: true },
        ReportsToId: { dataType: 'Reference', createable: reportsToCreateable },
      },
      recordTypeInfos: Object.fromEntries(
        Object.entries(recordTypes).map(([id, { master }]) => [id, { recordTypeId: id, master }]),
      ),
    }) as unknown as ObjectInfo;
  const value = (v: string | null) => ({ displayValue: null, value: v });

  it('keeps the lookups its form shows and a new record may be given, and a record type other than the master', () => {
    const record = {
      recordTypeId: '012000000000001AAA',
      fields: {
        LastName: value('Ngo'),
        AccountId: value('001000000000001AAA'),
        ReportsToId: value('003000000000001AAA'),
      },
    };
    expect(cloneFieldsOf(sections, objectInfo({ '012000000000001AAA': { master: false } }), record)).toEqual({
      AccountId: '001000000000001AAA',
      RecordTypeId: '012000000000001AAA',
    });
  });

  it('sends no empty lookup, and no master or unknown record type', () => {
    const record = {
      recordTypeId: '012000000000000AAA',
      fields: { AccountId: value(null), ReportsToId: value('003000000000001AAA') },
    };
    expect(cloneFieldsOf(sections, objectInfo({ '012000000000000AAA': { master: true } }, true), record)).toEqual({
      ReportsToId: '003000000000001AAA',
    });
    expect(cloneFieldsOf(sections, objectInfo({}), { recordTypeId: '012000000000009AAA', fields: {} })).toEqual({});
  });
});
