/** Layout derivation: one definition gives every mode, as each caller may see it; layout data is checked on load. */
import { describe, expect, it } from 'vitest';
import {
  buildLayout,
  defaultLayoutDefinition,
  derivedId,
  layoutFieldNames,
  layoutFileProblems,
  type LayoutDefinition,
} from '../../server/platform/layouts/build.ts';
import { toId18 } from '../../server/platform/core/ids.ts';
import type { FieldDefinition } from '../../server/platform/core/definitions.ts';

const FIELDS: FieldDefinition[] = [
  {
    apiName: 'Name',
    label: 'Ticket Number',
    dataType: 'String',
    length: 30,
    calculated: true,
    createable: false,
    updateable: false,
    nameField: true,
  },
  { apiName: 'Subject', label: 'Subject', dataType: 'String', length: 255, required: true },
  { apiName: 'Notes', label: 'Notes', dataType: 'TextArea', length: 1000 },
  { apiName: 'Secret', label: 'Secret', dataType: 'String', length: 10 },
  { apiName: 'OwnerId', label: 'Owner ID', dataType: 'Reference', length: 18, referenceTo: ['User'] },
  {
    apiName: 'CreatedById',
    label: 'Created By ID',
    dataType: 'Reference',
    length: 18,
    createable: false,
    updateable: false,
    referenceTo: ['User'],
  },
];
const byName = new Map(FIELDS.map((field) => [field.apiName, field]));

const DEFINITION: LayoutDefinition = {
  id: '00h8d0000000009AAA',
  name: 'Ticket Layout',
  layoutType: 'Full',
  recordTypes: ['Master'],
  sections: [
    {
      id: '01B8d0000000011EAA',
      heading: 'Ticket',
      useHeading: false,
      columns: 2,
      rows: [
        ['Name', 'Subject'],
        ['Notes', null],
        ['Secret', 'OwnerId'],
      ],
    },
    { id: '01B8d0000000012EAA', heading: 'System', collapsible: true, columns: 2, rows: [['CreatedById', null]] },
  ],
};

const build = (mode: 'View' | 'Edit' | 'Create', options: Partial<Parameters<typeof buildLayout>[1]> = {}) =>
  buildLayout(DEFINITION, {
    objectApiName: 'Ticket__c',
    recordTypeId: '012000000000000AAA',
    mode,
    fieldsByName: byName,
    ...options,
  });

describe('buildLayout', () => {
  it('shows every field in View, in rows of the given columns, blank cells as EmptySpace', () => {
    const layout = build('View');
    expect(layoutFieldNames(layout)).toEqual(['Name', 'Subject', 'Notes', 'Secret', 'OwnerId', 'CreatedById']);
    expect(layout.sections[0]).toMatchObject({
      id: '01B8d0000000011EAA',
      heading: 'Ticket',
      columns: 2,
      rows: 3,
      collapsible: false,
      useHeading: false,
    });
    expect(layout.sections[1]).toMatchObject({ collapsible: true, useHeading: true });
    expect(layout.sections[0].layoutRows[1].layoutItems[1]).toEqual({
      editableForNew: false,
      editableForUpdate: false,
      label: '',
      layoutComponents: [{ apiName: null, componentType: 'EmptySpace' }],
      lookupIdApiName: null,
      required: false,
      sortable: false,
    });
  });

  it('describes each item from its field: required, editable, sortable, a lookup by its related record', () => {
    const layout = build('View');
    const items = layout.sections.flatMap((section) => section.layoutRows.flatMap((row) => row.layoutItems));
    const item = (name: string) => items.find((candidate) => candidate.layoutComponents[0].apiName === name)!;
    expect(item('Name')).toMatchObject({
      editableForNew: false,
      editableForUpdate: false,
      required: false,
      label: 'Ticket Number',
    });
    expect(item('Subject')).toMatchObject({
      editableForNew: true,
      editableForUpdate: true,
      required: true,
      sortable: true,
    });
    expect(item('Notes').sortable).toBe(false);
    expect(item('OwnerId')).toMatchObject({
      label: 'Owner',
      lookupIdApiName: 'OwnerId',
      layoutComponents: [{ apiName: 'OwnerId', componentType: 'Field', label: 'Owner ID' }],
    });
  });

  it('drops formula and auto-number fields from Edit and Create, and system-set fields from Create', () => {
    expect(layoutFieldNames(build('Edit'))).toEqual(['Subject', 'Notes', 'Secret', 'OwnerId', 'CreatedById']);
    const create = build('Create');
    expect(layoutFieldNames(create)).toEqual(['Subject', 'Notes', 'Secret', 'OwnerId']);
    // The System section has nothing left to show on a new record.
    expect(create.sections.map((section) => section.heading)).toEqual(['Ticket']);
    expect(create.sections[0].layoutRows[0].layoutItems[0].layoutComponents[0].componentType).toBe('EmptySpace');
  });

  it('hides fields the caller may not read and makes read-only those it may not edit', () => {
    const layout = build('View', {
      access: (field) =>
        field.apiName === 'Secret'
          ? { read: false, edit: false }
          : field.apiName === 'Subject'
            ? { read: true, edit: false }
            : { read: true, edit: true },
      canCreate: false,
    });
    expect(layoutFieldNames(layout)).not.toContain('Secret');
    const subject = layout.sections[0].layoutRows[0].layoutItems[1];
    expect(subject).toMatchObject({ editableForNew: false, editableForUpdate: false, required: true });
    const owner = layout.sections[0].layoutRows[2].layoutItems[1];
    expect(owner).toMatchObject({ editableForNew: false, editableForUpdate: true });
  });

  it('drops a row whose cells are all blank for the caller', () => {
    const layout = build('View', { access: (field) => ({ read: field.apiName !== 'Notes', edit: true }) });
    expect(layout.sections[0].rows).toBe(2);
  });
});

describe('a compound cell', () => {
  const person = new Map<string, FieldDefinition>([
    [
      'Name',
      {
        apiName: 'Name',
        label: 'Full Name',
        dataType: 'String',
        length: 121,
        calculated: true,
        createable: false,
        updateable: false,
      },
    ],
    ['FirstName', { apiName: 'FirstName', label: 'First Name', dataType: 'String', length: 40 }],
    ['LastName', { apiName: 'LastName', label: 'Last Name', dataType: 'String', length: 80, required: true }],
  ]);
  const definition: LayoutDefinition = {
    id: '00h8d0000000009AAA',
    name: 'Person',
    layoutType: 'Full',
    recordTypes: ['Master'],
    sections: [
      { id: null, heading: 'Person', columns: 1, rows: [[{ field: 'Name', editFields: ['FirstName', 'LastName'] }]] },
    ],
  };
  const personLayout = (mode: 'View' | 'Edit', access?: (field: FieldDefinition) => { read: boolean; edit: boolean }) =>
    buildLayout(definition, {
      objectApiName: 'Person__c',
      recordTypeId: '012000000000000AAA',
      mode,
      fieldsByName: person,
      access,
    });

  it('shows the whole field in View and its parts in one item on a form', () => {
    expect(layoutFieldNames(personLayout('View'))).toEqual(['Name']);
    const item = personLayout('Edit').sections[0].layoutRows[0].layoutItems[0];
    expect(item).toMatchObject({ label: 'Full Name', required: true, editableForNew: true, editableForUpdate: true });
    expect(item.layoutComponents.map((component) => component.apiName)).toEqual(['FirstName', 'LastName']);
  });

  it('keeps only the parts the caller may read, and is read-only when any part is', () => {
    const item = personLayout('Edit', (field) => ({ read: field.apiName !== 'FirstName', edit: false })).sections[0]
      .layoutRows[0].layoutItems[0];
    expect(item.layoutComponents.map((component) => component.apiName)).toEqual(['LastName']);
    expect(item.editableForUpdate).toBe(false);
  });
});

describe('defaultLayoutDefinition', () => {
  it('places business fields two to a row and system fields in a collapsible section of their own', () => {
    const definition = defaultLayoutDefinition('Ticket__c', 'Full', FIELDS, ['Name']);
    expect(definition.sections.map((section) => section.heading)).toEqual(['Information', 'System Information']);
    expect(definition.sections[0].rows).toEqual([
      ['Name', 'Subject'],
      ['Notes', 'Secret'],
      ['OwnerId', null],
    ]);
    expect(definition.sections[1]).toMatchObject({ collapsible: true, rows: [['CreatedById', null]] });
    expect(toId18(definition.id)).toBe(definition.id);
    expect(definition.id.startsWith('00h')).toBe(true);
  });

  it('makes the compact layout of the name fields and the next fields, four at most', () => {
    const definition = defaultLayoutDefinition('Ticket__c', 'Compact', FIELDS, ['Subject']);
    expect(definition.sections[0].rows).toEqual([
      ['Subject', 'Name'],
      ['Notes', 'Secret'],
    ]);
  });

  it('gives stable ids that differ between objects and layout types', () => {
    expect(derivedId('00h', 'A', 'Full')).toBe(derivedId('00h', 'A', 'Full'));
    expect(derivedId('00h', 'A', 'Full')).not.toBe(derivedId('00h', 'B', 'Full'));
    expect(derivedId('00h', 'A', 'Full')).not.toBe(derivedId('00h', 'A', 'Compact'));
  });
});

describe('layoutFileProblems', () => {
  const fields = new Set(FIELDS.map((field) => field.apiName));
  it('accepts sound layout data', () => {
    expect(
      layoutFileProblems({ objectApiName: 'Ticket__c', layouts: [DEFINITION] }, fields, new Set(['Master'])),
    ).toEqual([]);
  });

  it('names unknown fields and record types, rows wider than their section and a record type assigned twice', () => {
    const problems = layoutFileProblems(
      {
        objectApiName: 'Ticket__c',
        layouts: [
          {
            ...DEFINITION,
            recordTypes: ['Master', 'Support'],
            sections: [{ id: null, heading: 'A', columns: 1, rows: [['Subject', 'Missing__c']] }],
          },
          { ...DEFINITION, name: 'Second', recordTypes: ['Master'] },
        ],
      },
      fields,
      new Set(['Master']),
    );
    expect(problems).toEqual([
      'Ticket Layout: no record type Support',
      'Ticket Layout: a row of A has more cells than columns',
      'Ticket Layout: no field Missing__c',
      'Second: record type Master already has a Full layout',
    ]);
  });
});
