/**
 * Record layouts from layout data: one definition per object, layout type and record type assignment gives
 * the layout of every mode, and the caller's field permissions decide what each item shows and allows.
 * Pure functions, no HTTP and no database.
 */
import { createHash } from 'node:crypto';
import type { components } from '../../../generated/types.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { makeId } from '../core/ids.ts';

type Schemas = components['schemas'];

export const LAYOUT_TYPES = ['Full', 'Compact'] as const;
export const LAYOUT_MODES = ['View', 'Edit', 'Create'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];
export type LayoutMode = (typeof LAYOUT_MODES)[number];

/**
 * A cell of a layout row in the data: a field API name, null for a blank cell, or a compound field (a
 * person's name) that View shows as the one field and Edit and Create as its parts in one item.
 */
type LayoutCell = string | null | { field: string; editFields: string[] };

export interface LayoutSectionDefinition {
  id: string | null;
  heading: string | null;
  useHeading?: boolean;
  collapsible?: boolean;
  columns: number;
  rows: LayoutCell[][];
}

/** A save option of a layout, in the data as in the answer. */
type SaveOptionDefinition = Schemas['RecordLayoutSaveOptionRepresentation'];

export interface LayoutDefinition {
  id: string;
  name: string;
  layoutType: LayoutType;
  /** The record types (by developer name, "Master" for the master record type) the layout is assigned to. */
  recordTypes: string[];
  saveOptions?: SaveOptionDefinition[];
  sections: LayoutSectionDefinition[];
}

export interface LayoutFile {
  objectApiName: string;
  layouts: LayoutDefinition[];
}

/** What the caller may do with a field; undefined hides the field. */
interface FieldAccess {
  read: boolean;
  edit: boolean;
}

interface LayoutContext {
  objectApiName: string;
  recordTypeId: string;
  mode: LayoutMode;
  fieldsByName: Map<string, FieldDefinition>;
  /** The caller's access to a field; absent, every field is readable and editable. */
  access?: (field: FieldDefinition) => FieldAccess;
  /** Whether the caller may create records of the object (editableForNew needs it). */
  canCreate?: boolean;
}

// What the layouts answer: the contract's representations (the layout's eTag is added by the caller).
type LayoutItem = Schemas['RecordLayoutItemRepresentation'];
type LayoutSection = Schemas['RecordLayoutSectionRepresentation'];
export type RecordLayout = Omit<Schemas['RecordLayoutRepresentation'], 'eTag' | 'layoutType' | 'mode'> & {
  layoutType: LayoutType;
  mode: LayoutMode;
};

const EMPTY_ITEM: LayoutItem = Object.freeze({
  editableForNew: false,
  editableForUpdate: false,
  label: '',
  layoutComponents: [{ apiName: null, componentType: 'EmptySpace' as const }],
  lookupIdApiName: null,
  required: false,
  sortable: false,
}) as LayoutItem;

/**
 * Whether a field shows in a mode: formula and auto-number fields only where a record is read, and fields
 * the system sets (created by, last modified ...) not on a form for a new record, which has none yet.
 */
function showsInMode(field: FieldDefinition, mode: LayoutMode): boolean {
  if (mode === 'View') return true;
  if (field.calculated) return false;
  if (mode === 'Create') return field.createable !== false;
  return true;
}

/** The label of a layout item: a lookup shows the related record, so "Owner ID" reads "Owner". */
function itemLabel(field: FieldDefinition): string {
  if (typeof field.itemLabel === 'string') return field.itemLabel;
  return field.dataType === 'Reference' ? field.label.replace(/ ID$/, '') : field.label;
}

function fieldItem(field: FieldDefinition, access: FieldAccess, canCreate: boolean): LayoutItem {
  const editable = access.edit && !field.calculated;
  return {
    editableForNew: canCreate && editable && (field.createable ?? true),
    editableForUpdate: editable && (field.updateable ?? true),
    label: itemLabel(field),
    layoutComponents: [{ apiName: field.apiName, componentType: 'Field', label: field.label }],
    lookupIdApiName: field.dataType === 'Reference' ? field.apiName : null,
    required: (field.required ?? false) && !field.calculated,
    sortable: field.sortable ?? !['MultiPicklist', 'TextArea'].includes(field.dataType),
  };
}

/** A compound field on a form: one item, labelled as the compound field, with a component per part the caller may read. */
function compoundItem(
  cell: { field: string; editFields: string[] },
  context: LayoutContext,
  access: (field: FieldDefinition) => FieldAccess,
  canCreate: boolean,
): LayoutItem {
  const parts = cell.editFields
    .map((name) => context.fieldsByName.get(name))
    .filter(
      (field): field is FieldDefinition =>
        field !== undefined && showsInMode(field, context.mode) && access(field).read,
    )
    .map((field) => fieldItem(field, access(field), canCreate));
  if (parts.length === 0) return EMPTY_ITEM;
  const whole = context.fieldsByName.get(cell.field);
  return {
    editableForNew: parts.every((part) => part.editableForNew),
    editableForUpdate: parts.every((part) => part.editableForUpdate),
    label: whole ? itemLabel(whole) : parts[0].label,
    layoutComponents: parts.flatMap((part) => part.layoutComponents),
    lookupIdApiName: null,
    required: parts.some((part) => part.required),
    sortable: whole ? (whole.sortable ?? true) : false,
  };
}

/** The layout of one mode, as the caller sees it: rows left with only blank cells, and empty sections, drop out. */
export function buildLayout(
  definition: Pick<LayoutDefinition, 'id' | 'layoutType' | 'saveOptions' | 'sections'>,
  context: LayoutContext,
): RecordLayout {
  const access = context.access ?? (() => ({ read: true, edit: true }));
  const canCreate = context.canCreate ?? true;
  const sections: LayoutSection[] = [];
  for (const section of definition.sections) {
    const layoutRows: { layoutItems: LayoutItem[] }[] = [];
    for (const row of section.rows) {
      const layoutItems = row.map((cell) => {
        if (cell !== null && typeof cell === 'object' && context.mode !== 'View')
          return compoundItem(cell, context, access, canCreate);
        const name = cell !== null && typeof cell === 'object' ? cell.field : cell;
        const field = name === null ? undefined : context.fieldsByName.get(name);
        if (!field || !showsInMode(field, context.mode)) return EMPTY_ITEM;
        const fieldAccess = access(field);
        return fieldAccess.read ? fieldItem(field, fieldAccess, canCreate) : EMPTY_ITEM;
      });
      if (layoutItems.some((item) => item !== EMPTY_ITEM))
        layoutRows.push({
          layoutItems: layoutItems.map((item) => (item === EMPTY_ITEM ? structuredClone(EMPTY_ITEM) : item)),
        });
    }
    if (layoutRows.length === 0) continue;
    sections.push({
      collapsible: section.collapsible ?? false,
      columns: section.columns,
      heading: section.heading,
      id: section.id,
      layoutRows,
      rows: layoutRows.length,
      useHeading: section.useHeading ?? section.heading !== null,
    });
  }
  return {
    id: definition.id,
    layoutType: definition.layoutType,
    mode: context.mode,
    objectApiName: context.objectApiName,
    recordTypeId: context.recordTypeId,
    saveOptions: definition.saveOptions ?? [],
    sections,
  };
}

/** The field API names of a layout's Field components, top to bottom, left to right. */
export function layoutFieldNames(layout: RecordLayout): string[] {
  const components = layout.sections.flatMap((section) =>
    section.layoutRows.flatMap((row) => row.layoutItems.flatMap((item) => item.layoutComponents)),
  );
  const names = components.flatMap((component) =>
    component.componentType === 'Field' && component.apiName !== null ? [component.apiName] : [],
  );
  return [...new Set(names)];
}

/** A stable platform-style id for something the data does not name (a layout built on the fly, its sections). */
export function derivedId(keyPrefix: string, ...parts: string[]): string {
  const sequence = parseInt(createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 12), 16) % 62 ** 8;
  return makeId(keyPrefix, sequence);
}

const SYSTEM_FIELDS = new Set([
  'Id',
  'CreatedDate',
  'CreatedById',
  'LastModifiedDate',
  'LastModifiedById',
  'SystemModstamp',
]);

/**
 * The layout of an object that has no layout data: its fields two to a row, system fields in a section of
 * their own; the compact layout is the name fields and the next few fields.
 */
export function defaultLayoutDefinition(
  objectApiName: string,
  layoutType: LayoutType,
  fields: FieldDefinition[],
  nameFields: string[],
): LayoutDefinition {
  const pairs = (names: string[]): LayoutCell[][] => {
    const rows: LayoutCell[][] = [];
    for (let i = 0; i < names.length; i += 2) rows.push([names[i], names[i + 1] ?? null]);
    return rows;
  };
  const id = derivedId('00h', objectApiName, layoutType);
  const business = fields.filter((field) => !SYSTEM_FIELDS.has(field.apiName)).map((field) => field.apiName);
  if (layoutType === 'Compact') {
    const names = [
      ...nameFields.filter(
        (name) => business.includes(name) && !fields.find((f) => f.apiName === name)?.compoundFieldName,
      ),
      ...business,
    ]
      .filter((name, index, all) => all.indexOf(name) === index)
      .slice(0, 4);
    return {
      id,
      name: `${objectApiName} Compact Layout`,
      layoutType,
      recordTypes: [],
      sections: [
        {
          id: derivedId('01B', objectApiName, layoutType, 'Information'),
          heading: null,
          useHeading: false,
          collapsible: false,
          columns: 2,
          rows: pairs(names),
        },
      ],
    };
  }
  const system = fields
    .filter((field) => SYSTEM_FIELDS.has(field.apiName) && field.apiName !== 'Id')
    .map((field) => field.apiName);
  return {
    id,
    name: `${objectApiName} Layout`,
    layoutType,
    recordTypes: [],
    sections: [
      {
        id: derivedId('01B', objectApiName, layoutType, 'Information'),
        heading: 'Information',
        useHeading: false,
        collapsible: false,
        columns: 2,
        rows: pairs(business),
      },
      {
        id: derivedId('01B', objectApiName, layoutType, 'System Information'),
        heading: 'System Information',
        useHeading: true,
        collapsible: true,
        columns: 2,
        rows: pairs(system),
      },
    ],
  };
}

/** Problems of a layout file against its object's fields and record types; empty when it is sound. */
export function layoutFileProblems(file: LayoutFile, fieldNames: Set<string>, recordTypeNames: Set<string>): string[] {
  const problems: string[] = [];
  const assigned = new Set<string>();
  for (const layout of file.layouts) {
    if (!LAYOUT_TYPES.includes(layout.layoutType))
      problems.push(`${layout.name}: layoutType ${layout.layoutType} is not Full or Compact`);
    for (const name of layout.recordTypes) {
      if (!recordTypeNames.has(name)) problems.push(`${layout.name}: no record type ${name}`);
      const key = `${name}/${layout.layoutType}`;
      if (assigned.has(key))
        problems.push(`${layout.name}: record type ${name} already has a ${layout.layoutType} layout`);
      assigned.add(key);
    }
    for (const section of layout.sections)
      for (const row of section.rows) {
        if (row.length > section.columns)
          problems.push(`${layout.name}: a row of ${section.heading ?? 'a section'} has more cells than columns`);
        for (const cell of row) {
          const names = cell === null ? [] : typeof cell === 'string' ? [cell] : [cell.field, ...cell.editFields];
          for (const name of names) if (!fieldNames.has(name)) problems.push(`${layout.name}: no field ${name}`);
        }
      }
  }
  return problems;
}
