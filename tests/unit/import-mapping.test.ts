/**
 * The pure parts of the import: columns mapped to fields (server/platform/import/mapping.ts), cells read as
 * field values and compared with stored ones (cells.ts), the export's escaping undone (lists/csv.ts).
 */
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '../../server/platform/core/definitions.ts';
import { cellValue, displayText, sameValue } from '../../server/platform/import/cells.ts';
import { mapColumns } from '../../server/platform/import/mapping.ts';
import { escapeText, unescapeText } from '../../server/platform/lists/csv.ts';
import { contactUs } from '../support/contact-us-object.ts';
import { admin } from '../support/import.ts';

const field = (apiName: string): FieldDefinition => contactUs.fieldsByName.get(apiName)!;

const mapped = (header: string[], chosen?: Record<string, string | null>, saved: Record<string, string | null> = {}) =>
  mapColumns(admin, contactUs, header, chosen, saved).map((column) => [
    column.header,
    column.field,
    column.by,
    column.readOnly,
  ]);

describe('mapColumns', () => {
  it('maps headers by API name or label, whatever their case and spaces', () => {
    expect(mapped(['Id', 'apt_email__c', ' company name ', 'Phone', 'Notes', 'Created Date'])).toEqual([
      ['Id', 'Id', 'apiName', true],
      ['apt_email__c', 'APT_Email__c', 'apiName', false],
      [' company name ', 'APT_Company_Name__c', 'label', false],
      ['Phone', 'APT_Phone__c', 'label', false],
      ['Notes', null, null, false],
      ['Created Date', 'CreatedDate', 'label', true],
    ]);
  });

  it("uses the request's choices, or else the saved mapping, before the names", () => {
    const saved = { Firma: 'APT_Company_Name__c', City: null };
    expect(mapped(['Firma', 'City', 'Email'], undefined, saved)).toEqual([
      ['Firma', 'APT_Company_Name__c', 'saved', false],
      ['City', null, null, false],
      ['Email', 'APT_Email__c', 'label', false],
    ]);
    // A request's mapping replaces the saved one: columns it leaves out are mapped by name.
    expect(mapped(['Firma', 'City', 'Email'], { Firma: 'APT_Address_1__c' }, saved)).toEqual([
      ['Firma', 'APT_Address_1__c', 'chosen', false],
      ['City', 'APT_City__c', 'label', false],
      ['Email', 'APT_Email__c', 'label', false],
    ]);
  });

  it('leaves out a column found by name for a field another has, and refuses two chosen for one', () => {
    expect(mapped(['Email', 'APT_Email__c', 'Company Name'])).toEqual([
      ['Email', 'APT_Email__c', 'label', false],
      ['APT_Email__c', null, null, false],
      ['Company Name', 'APT_Company_Name__c', 'label', false],
    ]);
    expect(() => mapped(['Email', 'Mail'], { Mail: 'APT_Email__c' })).toThrow(
      "Columns 'Email' and 'Mail' are both mapped to Email (APT_Email__c).",
    );
    expect(() => mapped(['Mail'], { Mail: 'Nope__c' })).toThrow(
      "Column 'Mail' is mapped to 'Nope__c', which is not a field of Contact Us.",
    );
  });

  it('refuses a mapping that is not one', () => {
    for (const chosen of [[], 'Company', { Email: 5 }, { Email: { field: 'APT_Email__c' } }])
      expect(() => mapped(['Email'], chosen as unknown as Record<string, string>)).toThrow(
        'A mapping is an object of column headers and field API names or null.',
      );
  });

  it('refuses a header with no column it may write', () => {
    expect(() => mapped(['Foo', 'Bar'])).toThrow(/^No column of the file goes to a field/);
    expect(() => mapped(['Id', 'Name', 'CreatedDate'])).toThrow(/^No column of the file goes to a field/);
    expect(() => mapped(['Company Name'], { 'Company Name': null })).toThrow(/^No column/);
  });
});

describe('cellValue', () => {
  it('reads checkboxes, numbers and empty cells, and leaves what is none of them for the checks', () => {
    const checkbox = field('APT_Default_Contact__c');
    expect(['true', 'FALSE', '1', '0', 'yes', '', 'maybe'].map((cell) => cellValue(checkbox, cell))).toEqual([
      true,
      false,
      true,
      false,
      true,
      null,
      'maybe',
    ]);
    const amount: FieldDefinition = { apiName: 'Amount', label: 'Amount', dataType: 'Currency', length: 0 };
    expect(['12.5', '-3', ' 1e3 ', '', '12,5'].map((cell) => cellValue(amount, cell))).toEqual([
      12.5,
      -3,
      1000,
      null,
      '12,5',
    ]);
    expect(cellValue(field('APT_City__c'), '')).toBeNull();
    expect(cellValue(field('OwnerId'), ' 0058d0000000001AAA ')).toBe('0058d0000000001AAA');
  });

  it("takes off the ' the export put before a value, and only that one", () => {
    const city = field('APT_City__c');
    for (const text of ['=1+1', '+1', '-1', '@x', '\tx', '＝1', "'quoted", 'plain', "it's"])
      expect(cellValue(city, escapeText(text))).toBe(text);
    expect(cellValue(city, "'hand typed")).toBe("'hand typed");
    expect(unescapeText("''=1")).toBe("'=1");
  });
});

describe('sameValue', () => {
  it('compares as the record holds values: checkboxes unset as false, multi-selects in any order, blank as none', () => {
    expect(sameValue(field('APT_Default_Contact__c'), undefined, false)).toBe(true);
    expect(sameValue(field('APT_Default_Contact__c'), false, true)).toBe(false);
    expect(sameValue(field('APT_Brand__c'), 'Arcline;Ironspan', 'Ironspan;Arcline')).toBe(true);
    expect(sameValue(field('APT_Brand__c'), 'Arcline;Ironspan', 'Arcline')).toBe(false);
    expect(sameValue(field('APT_City__c'), '', null)).toBe(true);
    expect(sameValue(field('APT_City__c'), null, 'Austin')).toBe(false);
    expect(sameValue(field('APT_City__c'), 'Austin', 'austin')).toBe(false);
    expect(sameValue(field('OwnerId'), '0058d0000000001', '0058d0000000001AAA')).toBe(true);
    const when: FieldDefinition = { apiName: 'When', label: 'When', dataType: 'DateTime', length: 0 };
    expect(sameValue(when, '2025-01-06T14:00:00Z', '2025-01-06T14:00:00.000Z')).toBe(true);
  });

  it('shows values as text, none as ""', () => {
    expect([null, undefined, true, false, 3.5, 'x'].map(displayText)).toEqual(['', '', 'true', 'false', '3.5', 'x']);
  });
});
