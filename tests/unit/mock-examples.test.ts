/**
 * npm run dev:mock: the example of getContacts the dev server asks Prism for, by the filters chosen
 * (web/mock-examples.ts), read from the contract itself: every place of the mock's country and state lists
 * gets contacts of that place, or none; and the examples agree with one another. And the example of getRecordUi
 * in the modes asked (the edit form's Edit layout).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contactsExampleFor,
  contactsExamples,
  GET_CONTACTS_PATH,
  preferHeaderFor,
  recordUiExamples,
  recordUiPreferHeader,
} from '../../web/mock-examples.ts';

const contract = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../generated/openapi.json'), 'utf8'),
) as Record<string, unknown>;
const examples = contactsExamples(contract);
const components = (contract.components as { examples: Record<string, { value: unknown }> }).examples;
const places = JSON.parse(components.DependentStatePicklistsValues.value as string) as Record<string, string[]>;
const contactsOf = (name: string | undefined) => examples.find((example) => example.name === name)?.contacts ?? [];

describe('the getContacts example for the filters chosen in dev:mock', () => {
  it('has contacts of the country chosen, for every country of the mock’s list', () => {
    for (const country of Object.keys(places)) {
      const contacts = contactsOf(contactsExampleFor(examples, { country }));
      expect(contacts.length, country).toBeGreaterThan(0);
      for (const contact of contacts) expect(contact.APT_UI_Country__c, country).toBe(country);
    }
    expect(contactsExampleFor(examples, { country: 'Canada' })).toBe('canada');
    expect(contactsExampleFor(examples, { country: 'United States' })).toBe('unitedStates');
  });

  it('has contacts of the state chosen, for every state of the mock’s list', () => {
    for (const [country, states] of Object.entries(places)) {
      for (const state of states) {
        const contacts = contactsOf(contactsExampleFor(examples, { country, state }));
        expect(contacts.length, `${country}/${state}`).toBeGreaterThan(0);
        for (const contact of contacts) {
          expect([contact.APT_UI_Country__c, contact.APT_Primary_State__c], `${country}/${state}`).toEqual([
            country,
            state,
          ]);
        }
      }
    }
    expect(contactsExampleFor(examples, { country: 'Canada', state: 'Ontario' })).toBe('ontario');
    expect(contactsExampleFor(examples, { country: 'Canada', state: 'Manitoba' })).toBe('manitoba');
    expect(contactsExampleFor(examples, { country: 'Mexico' })).toBe('mexico');
    expect(contactsExampleFor(examples, { country: 'Germany' })).toBe('none');
  });

  it('gives a contact the same fields in every example that holds it', () => {
    const seen = new Map<string, string>();
    for (const example of examples) {
      for (const contact of example.contacts as { Id: string }[]) {
        const fields = JSON.stringify(contact);
        expect(seen.get(contact.Id) ?? fields, contact.Id).toBe(fields);
        seen.set(contact.Id, fields);
      }
    }
    expect(seen.size).toBeGreaterThan(5);
  });

  it('is named in the Prefer header of a getContacts request, and no other', () => {
    const url = (params: object) => `${GET_CONTACTS_PATH}?methodParams=${encodeURIComponent(JSON.stringify(params))}`;
    expect(
      preferHeaderFor(examples, url({ country: 'Canada', state: null, brands: ['Arcline'], lastRecordId: null })),
    ).toBe('example=canada');
    expect(preferHeaderFor(examples, url({ country: 'Canada', state: 'Quebec', brands: [], lastRecordId: null }))).toBe(
      'example=quebec',
    );
    // After an example's last contact there are no more.
    expect(
      preferHeaderFor(
        examples,
        url({ country: 'Canada', state: null, brands: [], lastRecordId: 'a1C8d0000000015EAA' }),
      ),
    ).toBe('example=none');
    expect(preferHeaderFor(examples, '/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts')).toBeUndefined();
    expect(preferHeaderFor(examples, `${GET_CONTACTS_PATH}?methodParams=%7Bnot-json`)).toBeUndefined();
  });
});

describe('the getRecordUi example for the modes asked in dev:mock', () => {
  const recordUis = recordUiExamples(contract);
  const RECORD_UI = '/services/data/v65.0/ui-api/record-ui/a1C8d0000000001EAA';

  it('reads the modes of each example’s layouts', () => {
    expect(recordUis).toEqual([
      { name: 'defaultContact', modes: ['View'] },
      { name: 'defaultContactEdit', modes: ['Edit'] },
    ]);
  });

  it('names the example in the modes asked, View when none is, and nothing for other requests', () => {
    expect(recordUiPreferHeader(recordUis, `${RECORD_UI}?layoutTypes=Full&modes=Edit`)).toBe(
      'example=defaultContactEdit',
    );
    expect(recordUiPreferHeader(recordUis, `${RECORD_UI}?layoutTypes=Full%2CCompact&modes=View`)).toBe(
      'example=defaultContact',
    );
    expect(recordUiPreferHeader(recordUis, RECORD_UI)).toBe('example=defaultContact');
    // No example has a layout in both modes: Prism's first.
    expect(recordUiPreferHeader(recordUis, `${RECORD_UI}?modes=View,Edit`)).toBeUndefined();
    expect(recordUiPreferHeader(recordUis, '/services/data/v65.0/ui-api/records/a1C8d0000000001EAA')).toBeUndefined();
  });
});
