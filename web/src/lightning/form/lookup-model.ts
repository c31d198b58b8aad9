/**
 * A lookup field's type-ahead, its pure parts: the objects the field can point at (from the object info's
 * referenceToInfos), the term worth a search (at least two characters, what the user typed trimmed), the
 * getLookupRecords request for it (TypeAhead, and the target object of a field that can point at several),
 * the answer made into options (each record's name, and a second field when the answer has one), and what the
 * list says while it waits, finds nothing or fails. The input itself is LookupInput.tsx.
 */
import type { components, Input } from '../../../../client/index';
import { displayText } from '../fields';

type FieldInfo = components['schemas']['FieldRepresentation'];
type LookupValues = components['schemas']['LookupValuesRepresentation'];
type RecordRepresentation = components['schemas']['RecordRepresentation'];

/** The fewest characters a search is sent for. */
export const LOOKUP_MIN_CHARACTERS = 2;
/** How long typing must pause before a search is sent. */
export const LOOKUP_DEBOUNCE_MS = 200;
/** The most suggestions asked for. */
const LOOKUP_PAGE_SIZE = 10;

/** An object a lookup field can point at, and the fields that make its records' names. */
export interface LookupTarget {
  apiName: string;
  nameFields: string[];
}

/** One suggestion: a record the field can point at. */
export interface LookupOption {
  id: string;
  /** The record's name. */
  name: string;
  /** A second field that tells like-named records apart (a user's e-mail, an account's city); '' for none. */
  secondary: string;
}

/**
 * Whether a lookup may be emptied (its clear button): a field that is not required, but never a record's owner,
 * which the API keeps filled (a new record's defaults to its creator; an update may change it, not empty it).
 */
export function lookupMayBeEmptied(info: Pick<FieldInfo, 'apiName' | 'required'>): boolean {
  return !info.required && info.apiName !== 'OwnerId';
}

/** The objects a reference field can point at; none for any other field. */
export function lookupTargetsOf(info: Pick<FieldInfo, 'dataType' | 'referenceToInfos'>): LookupTarget[] {
  if (info.dataType !== 'Reference') return [];
  return (info.referenceToInfos ?? []).map(({ apiName, nameFields }) => ({ apiName, nameFields: [...nameFields] }));
}

/** The term to search for what the user typed: trimmed, and null while it is shorter than a search needs. */
export function searchTermOf(typed: string | null): string | null {
  const term = (typed ?? '').trim();
  return term.length >= LOOKUP_MIN_CHARACTERS ? term : null;
}

/** The fields a lookup's filter depends on (a case's contact among its account's): none for most. */
export function lookupControllersOf(info: Pick<FieldInfo, 'filteredLookupInfo'>): string[] {
  return [...(info.filteredLookupInfo?.controllingFields ?? [])];
}

/** What a lookup's search needs to know of its field. */
export interface LookupFieldInfo {
  apiName: string;
  targets: readonly LookupTarget[];
  /** The fields its lookup filter depends on. */
  lookupControllers: readonly string[];
}

/**
 * The getLookupRecords request for a term: the records of the target whose name starts with it. The target
 * object is named only for a field that can point at several (the platform's lookup asks one at a time). The
 * body gives the form's values of the fields the lookup filter depends on, as they now are in the form (an
 * empty one as null), so that the suggestions follow what the user has set there.
 */
export function lookupRequestOf(
  objectApiName: string,
  field: LookupFieldInfo,
  term: string,
  target: string | undefined,
  values: Readonly<Record<string, string | boolean>>,
): Input<'getLookupRecords'> {
  const sourceFields: Record<string, string | boolean | null> = {};
  for (const apiName of field.lookupControllers) {
    const value = values[apiName];
    sourceFields[apiName] = value === undefined || value === '' ? null : value;
  }
  return {
    path: { objectApiName, fieldApiName: field.apiName },
    query: {
      searchType: 'TypeAhead',
      q: term,
      pageSize: LOOKUP_PAGE_SIZE,
      ...(field.targets.length > 1 && target ? { targetApiName: target } : {}),
    },
    body: field.lookupControllers.length > 0 ? { sourceRecord: { apiName: objectApiName, fields: sourceFields } } : {},
  };
}

/** A record's name: its Name field when it is a name field, else its first name field that holds one. */
function nameOf(record: RecordRepresentation, nameFields: readonly string[]): string {
  const candidates = nameFields.includes('Name') ? ['Name', ...nameFields] : [...nameFields];
  for (const apiName of candidates) {
    const text = displayText(record.fields[apiName]);
    if (text) return text;
  }
  // An answer without the name fields the object info gave: its first field other than the id.
  for (const [apiName, value] of Object.entries(record.fields))
    if (apiName !== 'Id' && displayText(value)) return displayText(value);
  return record.id;
}

/** The first field of a suggestion, other than its id and name fields, that holds a value; '' for none. */
function secondaryOf(record: RecordRepresentation, nameFields: readonly string[], name: string): string {
  for (const [apiName, value] of Object.entries(record.fields)) {
    if (apiName === 'Id' || nameFields.includes(apiName)) continue;
    const text = displayText(value);
    if (text && text !== name) return text;
  }
  return '';
}

/**
 * The suggestions of an answer, in its order: those of the target asked for (of every target the answer has,
 * when none is named), each by its name and a second field.
 */
export function lookupOptionsOf(
  answer: LookupValues | undefined,
  targets: readonly LookupTarget[],
  target?: string,
): LookupOption[] {
  if (!answer) return [];
  const options: LookupOption[] = [];
  for (const [apiName, page] of Object.entries(answer.lookupResults)) {
    if (target && apiName !== target) continue;
    const nameFields = targets.find((candidate) => candidate.apiName === apiName)?.nameFields ?? ['Name'];
    for (const record of page.records) {
      const name = nameOf(record, nameFields);
      options.push({ id: record.id, name, secondary: secondaryOf(record, nameFields, name) });
    }
  }
  return options;
}

/** Where a search stands, as the list shows it. */
export type LookupState =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'error' } | { kind: 'results'; options: LookupOption[] };

/**
 * What the list says, and what a screen reader is told: nothing before a search; "Searching…" while it runs;
 * that nothing matched, or that the search failed; how many records were found.
 */
export function lookupMessageOf(state: LookupState, term: string | null): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'loading':
      return 'Searching…';
    case 'error':
      return 'The search failed. Try again.';
    case 'results': {
      const count = state.options.length;
      if (count === 0) return `No results for “${term ?? ''}”.`;
      return count === 1 ? '1 result.' : `${count} results.`;
    }
  }
}

/** The option after `active` going `step` (±1) through `options`, wrapping; the first (or last) when none is. */
export function movedActive(options: readonly LookupOption[], active: string | null, step: 1 | -1): string | null {
  if (options.length === 0) return null;
  const index = options.findIndex((option) => option.id === active);
  if (index < 0) return (step === 1 ? options[0] : options[options.length - 1]).id;
  return options[(index + step + options.length) % options.length].id;
}
