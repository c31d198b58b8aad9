/**
 * The back office's record actions, their pure parts: what a copy of a record sends besides its form's values.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/types.ts';
import { cloneFieldsOf, type FormSection } from '../../web/src/lightning/form/form-model.ts';

type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

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
