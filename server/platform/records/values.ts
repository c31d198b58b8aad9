/**
 * Field values by data type: what a write may put in a field (checked and normalised), how a stored value
 * is displayed, and the fields the platform computes (auto-numbers, TEXT() formulas, compound names).
 * Pure functions: no HTTP, no database.
 */
import { toId18 } from '../core/ids.ts';
import type { FieldDefinition } from '../core/definitions.ts';

export type FieldValue = string | number | boolean | null;

export interface ValueError {
  errorCode: string;
  message: string;
}

/** The values a picklist field allows (for the record's record type) and, for a dependent one, their controlling values. */
export interface PicklistRule {
  values: Set<string>;
  validFor: Map<string, string[]>;
  /** The value a new record gets when it names none (the record type's default), if there is one. */
  defaultValue?: string;
}

export interface ValueContext {
  /** Picklist rules by field API name. */
  picklists: Map<string, PicklistRule>;
  /** Key prefixes of each object a reference may point at (by object API name). */
  keyPrefixes: Map<string, string>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const TEXT_TYPES = new Set(['String', 'TextArea', 'LongTextArea', 'Phone', 'Email', 'Url', 'EncryptedString']);
const NUMBER_TYPES = new Set(['Int', 'Double', 'Currency', 'Percent']);

const typeError = (field: FieldDefinition, value: unknown): ValueError => ({
  errorCode: 'INVALID_TYPE_ON_FIELD_IN_RECORD',
  message: `${field.label}: value not of required type: ${JSON.stringify(value)}`,
});

/** A calendar date that exists (2026-02-30 does not). */
function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * Checks a value written to a field and returns it normalised (trimmed of nothing: text is kept as sent;
 * date-times in UTC with milliseconds; an empty string as null), or the error.
 */
export function normaliseValue(
  field: FieldDefinition,
  raw: FieldValue,
  context: ValueContext,
): { value: FieldValue } | { error: ValueError } {
  const type = field.dataType;
  if (type === 'Boolean') {
    if (raw === null) return { value: false };
    return typeof raw === 'boolean' ? { value: raw } : { error: typeError(field, raw) };
  }
  if (raw === null || raw === '') return { value: null };
  if (TEXT_TYPES.has(type) || type === 'Picklist' || type === 'MultiPicklist') {
    if (typeof raw !== 'string') return { error: typeError(field, raw) };
    if (field.length > 0 && raw.length > field.length) {
      return {
        error: {
          errorCode: 'STRING_TOO_LONG',
          message: `${field.label}: data value too large: ${raw.slice(0, 40)} (max length=${field.length})`,
        },
      };
    }
    if (type === 'Email' && !EMAIL.test(raw))
      return {
        error: { errorCode: 'INVALID_EMAIL_ADDRESS', message: `${field.label}: invalid email address: ${raw}` },
      };
    if (type === 'Picklist' || type === 'MultiPicklist') {
      const rule = context.picklists.get(field.apiName);
      const chosen = type === 'MultiPicklist' ? raw.split(';') : [raw];
      const bad = rule ? chosen.find((value) => !rule.values.has(value)) : undefined;
      if (bad !== undefined) {
        return {
          error: {
            errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
            message: `${field.label}: bad value for restricted picklist field: ${bad}`,
          },
        };
      }
      if (type === 'MultiPicklist' && new Set(chosen).size !== chosen.length) {
        return {
          error: {
            errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
            message: `${field.label}: a value is chosen twice: ${raw}`,
          },
        };
      }
    }
    return { value: raw };
  }
  if (NUMBER_TYPES.has(type)) {
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return { error: typeError(field, raw) };
    if (type === 'Int' && !Number.isInteger(raw)) return { error: typeError(field, raw) };
    return { value: raw };
  }
  if (type === 'Date') {
    if (typeof raw !== 'string' || !DATE.test(raw) || !isRealDate(raw)) return { error: typeError(field, raw) };
    return { value: raw };
  }
  if (type === 'DateTime') {
    if (typeof raw !== 'string' || !DATE_TIME.test(raw)) return { error: typeError(field, raw) };
    const time = new Date(raw);
    return Number.isNaN(time.getTime()) ? { error: typeError(field, raw) } : { value: time.toISOString() };
  }
  if (type === 'Reference') {
    const id = typeof raw === 'string' ? toId18(raw) : null;
    const prefixes = (field.referenceTo ?? []).map((name) => context.keyPrefixes.get(name));
    if (!id || !prefixes.includes(id.slice(0, 3))) {
      return {
        error: {
          errorCode: 'INVALID_CROSS_REFERENCE_KEY',
          message: `${field.label}: id value of incorrect type: ${String(raw)}`,
        },
      };
    }
    return { value: id };
  }
  return { error: typeError(field, raw) };
}

/**
 * A dependent picklist's value must be valid for its controlling field's value. Returns the error, or null.
 * `values` are the record's values after the write.
 */
export function dependencyError(
  field: FieldDefinition,
  values: Record<string, FieldValue>,
  context: ValueContext,
): ValueError | null {
  const controller = field.controllerName;
  const value = values[field.apiName];
  if (!controller || typeof value !== 'string') return null;
  const validFor = context.picklists.get(field.apiName)?.validFor.get(value);
  if (!validFor || validFor.length === 0) return null;
  const controlling = values[controller];
  if (typeof controlling === 'string' && validFor.includes(controlling)) return null;
  return {
    errorCode: 'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
    message: `${field.label}: ${value} is not valid for ${controller} ${String(controlling)}`,
  };
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dateFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
});

/** The label of a picklist value, when the picklist metadata gives it one other than the value itself. */
export type PicklistLabelOf = (value: string) => string | undefined;

/**
 * The displayValue of a stored value: picklists (their values' labels; a multi-select's joined by
 * semicolons) and formatted dates and amounts have one, the rest null.
 */
export function displayValueOf(
  field: FieldDefinition,
  value: FieldValue,
  labelOf: PicklistLabelOf = () => undefined,
): string | null {
  if (value === null || value === undefined) return null;
  switch (field.dataType) {
    case 'Picklist':
      return labelOf(String(value)) ?? String(value);
    case 'MultiPicklist':
      return String(value)
        .split(';')
        .map((part) => labelOf(part) ?? part)
        .join(';');
    case 'DateTime':
      return dateTimeFormat.format(new Date(String(value)));
    case 'Date':
      return dateFormat.format(new Date(`${String(value)}T00:00:00.000Z`));
    case 'Currency':
      return typeof value === 'number'
        ? new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(value)
        : null;
    case 'Percent':
      return typeof value === 'number' ? `${value}%` : null;
    default:
      return null;
  }
}

/** The text of an auto-number field for a sequence number: `CU-{000000}` and 8 give CU-000008. */
export function autoNumberText(format: string, sequence: number): string {
  return format.replace(/\{(0+)\}/, (_match, zeros: string) => String(sequence).padStart(zeros.length, '0'));
}

/**
 * The fields the platform computes, from the record's other values: TEXT(Field) formulas and compound
 * fields (`"compoundOf": ["FirstName", "LastName"]`, joined by a space). Auto-numbers are set once, at
 * creation (autoNumberText).
 */
export function derivedValues(
  fields: FieldDefinition[],
  values: Record<string, FieldValue>,
): Record<string, FieldValue> {
  const derived: Record<string, FieldValue> = {};
  for (const field of fields) {
    const formula = typeof field.formula === 'string' ? /^TEXT\(([A-Za-z0-9_]+)\)$/.exec(field.formula) : null;
    if (formula) derived[field.apiName] = values[formula[1]] ?? null;
    const parts = Array.isArray(field.compoundOf) ? (field.compoundOf as string[]) : null;
    if (parts) {
      const text = parts
        .map((part) => values[part])
        .filter((part) => typeof part === 'string' && part !== '')
        .join(' ');
      derived[field.apiName] = text === '' ? null : text;
    }
  }
  return derived;
}
