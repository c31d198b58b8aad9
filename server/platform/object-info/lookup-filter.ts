/**
 * A reference field's lookup filter, as its metadata defines it (`lookupFilter`): filters on the target's
 * fields, whose values may name a field of the record being edited (`$Source.AccountId`), and whether the
 * filter may be bypassed. Pure.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { FieldDefinition } from '../core/definitions.ts';

/** A value taken from the record being edited. */
export const SOURCE_VALUE = /^\$Source\.([A-Za-z][A-Za-z0-9_]*)$/;

/** A lookup filter as a field's metadata defines it: filters on the target's fields, `$Source.Field` values. */
export interface LookupFilterDefinition {
  filters: Schemas['SearchFilterInputRepresentation'][];
  optional?: boolean;
}

export const lookupFilterOf = (field: FieldDefinition) =>
  (field.lookupFilter as LookupFilterDefinition | undefined) ?? null;

/** The source record's fields a lookup filter depends on. */
function controllingFields(filter: LookupFilterDefinition | null): string[] {
  const names = (filter?.filters ?? []).flatMap((one) =>
    one.values.flatMap((value) => SOURCE_VALUE.exec(value)?.[1] ?? []),
  );
  return [...new Set(names)];
}

/** The filteredLookupInfo of a field's object info; null for a field without a lookup filter. */
export function filteredLookupInfo(field: FieldDefinition): Schemas['FilteredLookupInfoRepresentation'] | null {
  const filter = lookupFilterOf(field);
  if (!filter) return null;
  const controlling = controllingFields(filter);
  return {
    controllingFields: controlling,
    dependent: controlling.length > 0,
    optionalFilter: filter.optional ?? false,
  };
}
