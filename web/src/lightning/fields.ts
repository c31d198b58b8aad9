/** A record's field values as the back office shows them: the display value when the API gives one, else the value. */
import type { components } from '../../../client/index';

export type RecordRepresentation = components['schemas']['RecordRepresentation'];
type FieldValue = components['schemas']['FieldValueRepresentation'];

/**
 * The field value at a path of the record: `Name`, or a field of a related record (`Owner.Name`), whose value
 * is that record's representation; undefined when the record does not carry it.
 */
export function fieldAt(record: RecordRepresentation, path: string): FieldValue | undefined {
  const [first, ...rest] = path.split('.');
  const field = record.fields[first];
  if (!field || rest.length === 0) return field;
  const related = field.value;
  return related !== null && typeof related === 'object' ? fieldAt(related, rest.join('.')) : undefined;
}

/** The text of a field value: its display value when present (a formatted date, a picklist's label), else its value. */
export function displayText(field: FieldValue | undefined): string {
  if (!field) return '';
  if (field.displayValue !== null && field.displayValue !== undefined) return field.displayValue;
  const { value } = field;
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return value.id;
  return String(value);
}

/** The record's name, for its page's heading: its Name field, else its id. */
export function recordName(record: RecordRepresentation): string {
  return displayText(record.fields.Name) || record.id;
}
