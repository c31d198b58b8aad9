/** The parts of a record UI answer (getRecordUi) a record page shows: the record, its object and its layout. */
import type { components } from '../../../../client/index';
import { displayText, type RecordRepresentation } from '../fields';

type RecordUi = components['schemas']['RecordUiRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];
type Layout = components['schemas']['RecordLayoutRepresentation'];
type Section = Layout['sections'][number];

/** One field of a section, as label and text. */
export interface ShownField {
  label: string;
  text: string;
}

export interface ShownSection {
  /** For the heading's id: the section's own id when it has one. */
  key: string;
  heading: string;
  columns: number;
  fields: ShownField[];
}

/**
 * The record, its object's label and its layout (Full, in the mode asked: View for its page, Edit for its form)
 * from a record UI answer for one record.
 */
export function recordPageOf(
  recordUi: RecordUi,
  recordId: string,
  mode: 'View' | 'Edit' = 'View',
): { record: RecordRepresentation; objectLabel: string; layout: Layout | undefined } | undefined {
  const record = recordUi.records[recordId] ?? Object.values(recordUi.records)[0];
  if (!record) return undefined;
  const byRecordType = recordUi.layouts[record.apiName] ?? {};
  const layout =
    byRecordType[record.recordTypeId ?? '']?.Full?.[mode] ??
    Object.values(byRecordType).find((byType) => byType.Full?.[mode])?.Full[mode];
  return { record, objectLabel: recordUi.objectInfos[record.apiName]?.label ?? record.apiName, layout };
}

/**
 * The lookups of a layout (fields that hold another record's id, such as OwnerId) as the field paths of the
 * related records' names (APT_Contact_Us__c.Owner.Name), by the lookup field: the record UI gives a lookup's id
 * only, and a person reads the related record's name.
 */
export function lookupNamePaths(layout: Layout, objectInfo: ObjectInfo | undefined): Map<string, string> {
  const paths = new Map<string, string>();
  if (!objectInfo) return paths;
  for (const section of layout.sections)
    for (const row of section.layoutRows)
      for (const item of row.layoutItems)
        for (const component of item.layoutComponents) {
          const field = component.apiName ? objectInfo.fields[component.apiName] : undefined;
          const nameField = field?.referenceToInfos[0]?.nameFields[0];
          if (component.componentType !== 'Field' || !field?.relationshipName || !nameField) continue;
          paths.set(field.apiName, `${objectInfo.apiName}.${field.relationshipName}.${nameField}`);
        }
  return paths;
}

/**
 * The sections of a layout with the record's values: each item's label, and the text of its field components
 * (several for a compound item, joined by a space); items that hold no field (empty space) are left out. A
 * lookup shows the related record's name when `names` has it (by the lookup field), else its id. A multi-select
 * picklist's values, which the API joins with ";", are shown "Arcline; Boltwright", as the platform shows them.
 */
export function sectionsOf(
  layout: Layout,
  record: RecordRepresentation,
  names: ReadonlyMap<string, string> = new Map(),
  objectInfo?: ObjectInfo,
): ShownSection[] {
  const textOf = (apiName: string) => {
    const text = names.get(apiName) || displayText(record.fields[apiName]);
    return objectInfo?.fields[apiName]?.dataType === 'MultiPicklist' ? text.split(';').join('; ') : text;
  };
  return layout.sections.map((section: Section, index) => ({
    key: section.id ?? String(index),
    heading: section.heading || 'Details',
    columns: Math.max(1, section.columns),
    fields: section.layoutRows.flatMap((row) =>
      row.layoutItems.flatMap((item) => {
        const fields = item.layoutComponents.filter((component) => component.componentType === 'Field');
        if (fields.length === 0) return [];
        const text = fields
          .map((component) => (component.apiName ? textOf(component.apiName) : ''))
          .filter(Boolean)
          .join(' ');
        return [{ label: item.label, text }];
      }),
    ),
  }));
}

/** The most fields a record's highlights show beside its name, as the platform's highlights panel does. */
export const MAX_HIGHLIGHTS = 7;

/** The compact layout (View) of the record's object and record type in a record UI answer asked for it. */
export function compactLayoutOf(recordUi: RecordUi, record: RecordRepresentation): Layout | undefined {
  const byRecordType = recordUi.layouts[record.apiName] ?? {};
  return (
    byRecordType[record.recordTypeId ?? '']?.Compact?.View ??
    Object.values(byRecordType).find((byType) => byType.Compact?.View)?.Compact?.View
  );
}

/**
 * A record's highlights: the fields of its compact layout as label and text, but for the record's name, which
 * the page shows as its heading (the platform's highlights panel shows the compact layout's first field as the
 * title, and the rest beneath); at most MAX_HIGHLIGHTS.
 */
export function highlightsOf(
  compact: Layout,
  record: RecordRepresentation,
  names: ReadonlyMap<string, string> = new Map(),
  objectInfo?: ObjectInfo,
): ShownField[] {
  const nameFields = new Set(objectInfo?.nameFields?.length ? objectInfo.nameFields : ['Name']);
  const withoutName: Layout = {
    ...compact,
    sections: compact.sections.map((section) => ({
      ...section,
      layoutRows: section.layoutRows.map((row) => ({
        layoutItems: row.layoutItems.filter(
          (item) => !item.layoutComponents.some((component) => component.apiName && nameFields.has(component.apiName)),
        ),
      })),
    })),
  };
  return sectionsOf(withoutName, record, names, objectInfo)
    .flatMap((section) => section.fields)
    .slice(0, MAX_HIGHLIGHTS);
}

/**
 * Which collapsible sections of a layout are collapsed, by section id, from the caller's layout user states
 * (the record UI's layoutUserStates, by layout id). A collapsible section without a saved state is expanded; a
 * section that is not collapsible, or has no id to save its state by, is not in the map.
 */
export function collapsedSectionsOf(
  layout: Layout,
  userStates: RecordUi['layoutUserStates'] | undefined,
): Map<string, boolean> {
  const saved = (layout.id ? userStates?.[layout.id]?.sectionUserStates : undefined) ?? {};
  const collapsed = new Map<string, boolean>();
  for (const section of layout.sections)
    if (section.collapsible && section.id) collapsed.set(section.id, saved[section.id]?.collapsed ?? false);
  return collapsed;
}
