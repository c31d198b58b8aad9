/** The parts of a record UI answer (getRecordUi) a record page shows: the record, its object and its layout. */
import type { components } from '../../../../client/index';
import { displayText, type RecordRepresentation } from '../fields';

type RecordUi = components['schemas']['RecordUiRepresentation'];
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

/** The record, its object's label and its layout (Full, View) from a record UI answer for one record. */
export function recordPageOf(
  recordUi: RecordUi,
  recordId: string,
): { record: RecordRepresentation; objectLabel: string; layout: Layout | undefined } | undefined {
  const record = recordUi.records[recordId] ?? Object.values(recordUi.records)[0];
  if (!record) return undefined;
  const byRecordType = recordUi.layouts[record.apiName] ?? {};
  const layout =
    byRecordType[record.recordTypeId ?? '']?.Full?.View ??
    Object.values(byRecordType).find((byType) => byType.Full?.View)?.Full.View;
  return { record, objectLabel: recordUi.objectInfos[record.apiName]?.label ?? record.apiName, layout };
}

/**
 * The sections of a layout with the record's values: each item's label, and the text of its field components
 * (several for a compound item, joined by a space); items that hold no field (empty space) are left out.
 */
export function sectionsOf(layout: Layout, record: RecordRepresentation): ShownSection[] {
  return layout.sections.map((section: Section, index) => ({
    key: section.id ?? String(index),
    heading: section.heading || 'Details',
    columns: Math.max(1, section.columns),
    fields: section.layoutRows.flatMap((row) =>
      row.layoutItems.flatMap((item) => {
        const fields = item.layoutComponents.filter((component) => component.componentType === 'Field');
        if (fields.length === 0) return [];
        const text = fields
          .map((component) => (component.apiName ? displayText(record.fields[component.apiName]) : ''))
          .filter(Boolean)
          .join(' ');
        return [{ label: item.label, text }];
      }),
    ),
  }));
}
