/**
 * A record form's pure parts: a layout in Create or Edit mode made into sections of fields to fill in, the
 * values a form starts with, the values a save sends (only the fields changed), the options of a picklist
 * for the value of its controlling field, the checks made before a save, and the errors of a failed save by
 * field, and what a copy of a record sends besides the values filled in. The form itself (RecordForm.tsx) holds the values and draws the inputs.
 */
import type { components } from '../../../../client/index';
import { isApiError, isErrorList, isRecordWriteError } from '../../../../client/index';
import { displayText, type RecordRepresentation } from '../fields';
import { lookupControllersOf, lookupTargetsOf, type LookupTarget } from './lookup-model';

type Layout = components['schemas']['RecordLayoutRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];
type FieldInfo = components['schemas']['FieldRepresentation'];
type FieldValue = components['schemas']['FieldValueRepresentation'];
type PicklistValues = components['schemas']['PicklistValuesRepresentation'];
export type PicklistCollection = components['schemas']['PicklistValuesCollectionRepresentation'];
type WriteError = components['schemas']['RecordExceptionErrorRepresentation'];
type DefaultRecord = components['schemas']['RecordCreateDefaultRecordRepresentation'];

export type FormMode = 'create' | 'edit';

/** One field of the form. */
export interface FormField {
  apiName: string;
  label: string;
  dataType: FieldInfo['dataType'];
  /** Whether the user may set it in this form; read-only fields show their value only. */
  editable: boolean;
  required: boolean;
  /** The longest text the field holds, for a text input's maxLength; 0 for none. */
  maxLength: number;
  /** The picklist that decides this one's values (a state's country); null for none. */
  controllerName: string | null;
  /** The objects a lookup can point at, which its search asks for; none for a field that is no lookup. */
  targets: LookupTarget[];
  /** The fields a lookup's filter depends on, whose values its search sends. */
  lookupControllers: string[];
}

export interface FormSection {
  key: string;
  heading: string;
  columns: number;
  fields: FormField[];
}

/** A form's values by field: text (a picklist's value, a multi-select's values joined by `;`), or a checkbox's state. */
export type FormValues = Record<string, string | boolean>;

/** What a save writes: the record input's fields. */
export type InputFields = Record<string, string | number | boolean | null>;

const NUMBER_TYPES = new Set(['Double', 'Int', 'Long', 'Currency', 'Percent']);

/**
 * The sections of a layout in Create or Edit mode as fields to fill in. An item is editable when the layout
 * says so for the mode and the object info says the user may create or update its field; the rest are shown
 * read-only. Items that hold no field (empty space) are left out, and so are sections left with no field.
 */
export function formSectionsOf(layout: Layout, objectInfo: ObjectInfo, mode: FormMode): FormSection[] {
  const sections: FormSection[] = [];
  layout.sections.forEach((section, index) => {
    const fields: FormField[] = [];
    for (const row of section.layoutRows)
      for (const item of row.layoutItems) {
        const components = item.layoutComponents.filter((component) => component.componentType === 'Field');
        for (const component of components) {
          const info = component.apiName ? objectInfo.fields[component.apiName] : undefined;
          if (!info) continue;
          const allowed =
            mode === 'create' ? item.editableForNew && info.createable : item.editableForUpdate && info.updateable;
          const label = components.length > 1 ? component.label : item.label || info.label;
          fields.push(formFieldOf(info, label, allowed, item.required));
        }
      }
    if (fields.length > 0)
      sections.push({
        key: section.id ?? String(index),
        heading: section.heading || 'Details',
        columns: Math.max(1, section.columns),
        fields,
      });
  });
  return sections;
}

/**
 * A field of the object info as a form's field, under label; editable when the user may set it here, and then
 * required when the layout item or the field says so.
 */
export function formFieldOf(info: FieldInfo, label: string, editable: boolean, itemRequired = false): FormField {
  return {
    apiName: info.apiName,
    label,
    dataType: info.dataType,
    editable,
    required: editable && (itemRequired || info.required) && info.dataType !== 'Boolean',
    maxLength: info.length,
    controllerName: info.controllerName ?? null,
    targets: lookupTargetsOf(info),
    lookupControllers: lookupControllersOf(info),
  };
}

/** Every field of the form's sections. */
export function fieldsOf(sections: readonly FormSection[]): FormField[] {
  return sections.flatMap((section) => section.fields);
}

/** A field's value as a form holds it. */
function formValueOf(field: FormField, value: FieldValue | undefined): string | boolean {
  const raw = value?.value;
  if (field.dataType === 'Boolean') return raw === true;
  if (raw === null || raw === undefined) return '';
  if (typeof raw === 'object') return raw.id;
  if (field.dataType === 'DateTime' && typeof raw === 'string') return localDateTimeOf(raw);
  return String(raw);
}

/** A date-time as a datetime-local input holds it: the browser's local time, to the minute. */
function localDateTimeOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** The values a form starts with: the record's (or the create defaults') value of each field. */
export function initialValuesOf(fields: readonly FormField[], recordFields: Record<string, FieldValue>): FormValues {
  const values: FormValues = {};
  for (const field of fields) values[field.apiName] = formValueOf(field, recordFields[field.apiName]);
  return values;
}

/** The text a read-only field shows: its display value, as the record page shows it. */
export function readOnlyText(
  field: FormField,
  recordFields: Record<string, FieldValue>,
  names: ReadonlyMap<string, string>,
): string {
  return names.get(field.apiName) || displayText(recordFields[field.apiName]);
}

/** A value as the record input takes it: null for an empty field, a number for a number field. */
function inputValueOf(field: FormField, value: string | boolean): string | number | boolean | null {
  if (typeof value === 'boolean') return value;
  const text = field.dataType === 'Picklist' || field.dataType === 'MultiPicklist' ? value : value.trim();
  if (text === '') return null;
  if (NUMBER_TYPES.has(field.dataType)) {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (field.dataType === 'DateTime') return new Date(text).toISOString();
  return text;
}

/**
 * The fields a save writes: on edit only the editable fields whose value changed (so that a save never
 * overwrites a field someone else changed meanwhile with the value this form was opened with); on create
 * every editable field that holds a value.
 */
export function changedFieldsOf(
  fields: readonly FormField[],
  initial: FormValues,
  current: FormValues,
  mode: FormMode,
): InputFields {
  const changed: InputFields = {};
  for (const field of fields) {
    if (!field.editable) continue;
    const value = current[field.apiName] ?? '';
    if (mode === 'edit' && value === (initial[field.apiName] ?? '')) continue;
    const input = inputValueOf(field, value);
    if (mode === 'create' && (input === null || input === false) && !initial[field.apiName]) continue;
    changed[field.apiName] = input;
  }
  return changed;
}

/**
 * What a copy of a record sends besides the fields filled in: the values of the lookups its form shows (read-only,
 * as the form has no lookup search) that a new record may be given, and its record type unless it is the master
 * record type or one the object does not have; so that the copy points where the original does.
 */
export function cloneFieldsOf(
  sections: readonly FormSection[],
  objectInfo: ObjectInfo,
  record: Pick<DefaultRecord, 'fields' | 'recordTypeId'>,
): InputFields {
  const fields: InputFields = {};
  for (const field of fieldsOf(sections)) {
    const info = objectInfo.fields[field.apiName];
    const value = record.fields[field.apiName]?.value;
    if (info?.dataType === 'Reference' && info.createable && typeof value === 'string' && value !== '')
      fields[field.apiName] = value;
  }
  const recordType = record.recordTypeId ? objectInfo.recordTypeInfos[record.recordTypeId] : undefined;
  if (recordType && !recordType.master) fields.RecordTypeId = recordType.recordTypeId;
  return fields;
}

export interface PicklistOption {
  value: string;
  label: string;
}

/**
 * The values a picklist offers while its controlling field holds `controllerValue`: those valid for it, for a
 * dependent picklist (none while the controlling field is empty); every value otherwise.
 */
export function picklistOptionsOf(
  picklist: PicklistValues | undefined,
  controllerValue?: string | boolean,
): PicklistOption[] {
  if (!picklist) return [];
  if (Object.keys(picklist.controllerValues).length === 0)
    return picklist.values.map(({ value, label }) => ({ value, label }));
  // A checkbox controls by 'true' and 'false'; a picklist by its value.
  const index = picklist.controllerValues[String(controllerValue ?? '')];
  const values = index === undefined ? [] : picklist.values.filter((value) => value.validFor.includes(index));
  return values.map(({ value, label }) => ({ value, label }));
}

/**
 * The values after one field changed: a dependent picklist whose value is not valid for its controlling field's
 * new value is emptied (a state of another country), and so on down the chain.
 */
export function withValue(
  fields: readonly FormField[],
  picklists: PicklistCollection | undefined,
  values: FormValues,
  apiName: string,
  value: string | boolean,
): FormValues {
  const next = { ...values, [apiName]: value };
  const changed = [apiName];
  while (changed.length > 0) {
    const controller = changed.pop()!;
    for (const field of fields) {
      if (field.controllerName !== controller || !field.editable) continue;
      const current = next[field.apiName];
      if (current === '' || current === false) continue;
      const options = picklistOptionsOf(picklists?.picklistFieldValues[field.apiName], next[controller]);
      const kept = String(current)
        .split(';')
        .filter((part) => options.some((option) => option.value === part));
      const settled = field.dataType === 'MultiPicklist' ? kept.join(';') : (kept[0] ?? '');
      if (settled !== current) {
        next[field.apiName] = settled;
        changed.push(field.apiName);
      }
    }
  }
  return next;
}

/** The message of a required field left empty, in the platform's words. */
export const REQUIRED_MESSAGE = 'Complete this field.';

/** The checks made before a save: each required field holds a value. By field, the messages of those that fail. */
export function validationErrorsOf(fields: readonly FormField[], values: FormValues): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of fields) {
    if (!field.editable || !field.required) continue;
    const value = values[field.apiName];
    if (typeof value === 'string' && value.trim() === '') errors[field.apiName] = [REQUIRED_MESSAGE];
  }
  return errors;
}

/** What a failed save says, and where: by field (beside it), on the record (at the top), and what kind of failure. */
export interface SaveErrors {
  /** Messages about the record as a whole, or about fields the form does not show. */
  top: string[];
  byField: Record<string, string[]>;
  /** The record changed after the form was opened (412): nothing was written. */
  conflict: boolean;
  /** A duplicate rule found matches; `allowSave` when it only alerts and the record may be saved anyway. */
  duplicates?: { message: string; allowSave: boolean; count: number };
}

function messagesOf(errors: readonly WriteError[]): string[] {
  return errors.map((error) => error.message);
}

/**
 * The errors of a failed save in the record-error shape, placed: a field error beside its field when the form
 * shows it, else at the top with its field's label; a duplicate rule's finding as such; a 412 as a conflict.
 */
export function saveErrorsOf(error: unknown, fields: readonly FormField[]): SaveErrors {
  const shown = new Set(fields.map((field) => field.apiName));
  const result: SaveErrors = { top: [], byField: {}, conflict: false };
  if (!isApiError(error)) {
    result.top.push('The record could not be saved.');
    return result;
  }
  if (error.status === 412) {
    result.conflict = true;
    return result;
  }
  const { body } = error;
  if (isRecordWriteError(body)) {
    for (const [apiName, errors] of Object.entries(body.output.fieldErrors)) {
      if (shown.has(apiName)) result.byField[apiName] = [...(result.byField[apiName] ?? []), ...messagesOf(errors)];
      else
        result.top.push(
          ...errors.map((item) => (item.fieldLabel ? `${item.fieldLabel}: ${item.message}` : item.message)),
        );
    }
    for (const item of body.output.errors) {
      const matches = item.duplicateRecordError?.matchResults;
      if (item.errorCode === 'DUPLICATES_DETECTED' && matches) {
        result.duplicates = {
          message: item.message,
          allowSave: matches.length > 0 && matches.every((match) => match.isAllowSave),
          count: new Set(matches.flatMap((match) => match.matchRecordIds)).size,
        };
        continue;
      }
      if (item.field && shown.has(item.field))
        result.byField[item.field] = [...(result.byField[item.field] ?? []), item.message];
      else result.top.push(item.message);
    }
    if (result.top.length === 0 && Object.keys(result.byField).length === 0 && !result.duplicates)
      result.top.push(body.message);
    return result;
  }
  if (error.status === 0) result.top.push('The server did not answer: check the connection and try again.');
  else if (isErrorList(body)) result.top.push(...body.map((item) => item.message));
  else result.top.push('The record could not be saved.');
  return result;
}

/**
 * The If-Unmodified-Since of a save: the record's lastModifiedDate as read, as an HTTP date (to the second,
 * as the header holds it); undefined when the record has none.
 */
export function ifUnmodifiedSinceOf(record: Pick<RecordRepresentation, 'lastModifiedDate'>): string | undefined {
  if (!record.lastModifiedDate) return undefined;
  const date = new Date(record.lastModifiedDate);
  return Number.isNaN(date.getTime()) ? undefined : date.toUTCString();
}
