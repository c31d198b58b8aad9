/** The action files (server/platform/metadata/actions) against the org's objects: every name they use exists and fits. */
import { describe, expect, it } from 'vitest';
import {
  actionFileProblems,
  loadActions,
  quickActionNamed,
  type ActionCatalog,
} from '../../server/platform/actions/definitions.ts';
import { readObjectDefinitions } from '../../server/platform/metadata.ts';

describe('action metadata', () => {
  it('names only objects, fields, record types and actions that exist', () => {
    expect(actionFileProblems(loadActions(), readObjectDefinitions())).toEqual([]);
  });

  it('finds quick actions by API name in any case', () => {
    expect(quickActionNamed('account.new_contact')?.apiName).toBe('Account.New_Contact');
    expect(quickActionNamed('Account.Nope')).toBeUndefined();
  });

  it('reports what does not fit', () => {
    const catalog = loadActions();
    const account = catalog.objects.get('Account')!;
    const broken: ActionCatalog = {
      ...catalog,
      objects: new Map([
        [
          'Account',
          {
            ...account,
            quickActions: [
              {
                ...account.quickActions[0],
                targetParentField: 'ReportsToId',
                predefinedValues: { Name: 'x' },
                layout: [{ id: null, heading: null, columns: 1, rows: [['Nope__c']] }],
              },
            ],
            placements: [{ recordTypes: ['Partner'], sections: { Page: ['Account.Missing'] } }],
            overrides: { Merge: '/x' },
          },
        ],
      ]),
    };
    expect(actionFileProblems(broken, readObjectDefinitions())).toEqual([
      'Account.New_Contact: ReportsToId is not a field of Contact pointing at Account',
      'Account.New_Contact: predefined value for Name, which the action may not set',
      'Account.New_Contact: the layout names Nope__c, not a field of Contact',
      'Account.json: no record type Partner',
      'Account.json: Page places unknown action Account.Missing',
      'Account.json: Merge cannot be overridden',
    ]);
  });
});
