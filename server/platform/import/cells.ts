/**
 * An import's cells as field values: a cell's text as the value a write takes, a value as the report shows it,
 * and whether a stored value and a new one are the same.
 */
import type { FieldDefinition } from '../core/definitions.ts';
import { toId18 } from '../core/ids.ts';
import { unescapeText } from '../lists/csv.ts';
import type { FieldValue } from '../records/values.ts';

const NUMBER_TYPES = new Set(['Int', 'Double', 'Currency', 'Percent']);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/**
 * A cell's text as the value a write of the field takes: the export's escaping undone (lists/csv.ts), checkboxes
 * from true/false (or 1/0, yes/no), numbers as numbers, an empty cell as null. Text that is none of these is
 * left as it is, for the write's checks to refuse.
 */
export function cellValue(field: FieldDefinition, cell: string): FieldValue {
  if (NUMBER_TYPES.has(field.dataType)) {
    const text = cell.trim();
    if (text === '') return null;
    return NUMBER.test(text) ? Number(text) : cell;
  }
  if (field.dataType === 'Boolean') {
    const text = cell.trim().toLowerCase();
    if (text === '') return null;
    if (TRUE.has(text)) return true;
    if (FALSE.has(text)) return false;
    return cell;
  }
  if (cell === '') return null;
  if (field.dataType === 'Reference') return cell.trim();
  return unescapeText(cell);
}

/** A value as the report shows it: text, "" for none. */
export function displayText(value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
}

/** Whether a stored value and a normalised new one are the same value of the field (a multi-select's in any order). */
export function sameValue(field: FieldDefinition, stored: FieldValue | undefined, next: FieldValue): boolean {
  const before = stored === undefined || stored === '' ? null : stored;
  if (field.dataType === 'Boolean') return (before ?? false) === (next ?? false);
  if (before === null || next === null) return before === next;
  if (field.dataType === 'MultiPicklist') {
    const values = (value: FieldValue) => String(value).split(';').sort().join(';');
    return values(before) === values(next);
  }
  if (NUMBER_TYPES.has(field.dataType)) return Number(before) === Number(next);
  if (field.dataType === 'DateTime') return new Date(String(before)).getTime() === new Date(String(next)).getTime();
  if (field.dataType === 'Reference') return toId18(String(before)) === next;
  return before === next;
}
