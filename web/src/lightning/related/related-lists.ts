/**
 * The pure parts of a record's related lists: which of the object's related lists its page shows, a related
 * list's count as the platform writes it ("3", "10+"), the result of one related list in a batch answer, and a
 * related record's title and other values by the related list's columns.
 */
import type { components } from '../../../../client/index';
import { displayText, fieldAt, type RecordRepresentation } from '../fields';

type Summaries = components['schemas']['RelatedListSummaryInfoCollectionRepresentation'];
type Summary = components['schemas']['RelatedListSummaryInfoRepresentation'];
type Column = components['schemas']['RelatedListColumnRepresentation'];
type ErrorList = components['schemas']['ErrorList'];

/** Related records a card on the record page shows, as the platform's related list cards do. */
export const RELATED_ROWS = 6;
/** How far a card's count goes: beyond it the count is "10+", as the platform says it. */
export const RELATED_COUNT_MAX = 10;
/** The most related lists one batch call may name. */
export const RELATED_BATCH_MAX = 20;

/** The related lists the record page shows: those of the record's layout, in its order (at most one batch). */
export function shownRelatedLists(summaries: Summaries): Summary[] {
  return summaries.relatedLists.filter((list) => list.uiApiEnabledLayout).slice(0, RELATED_BATCH_MAX);
}

/** A count as the platform shows it: the number, with a + when there are more than were counted. */
export function countText(count: { count: number | null; hasMore: boolean }): string {
  return `${count.count ?? 0}${count.hasMore ? '+' : ''}`;
}

/**
 * One item of a batch answer (counts, records, infos): its result when its own status is 200, else its error's
 * message; undefined while there is no answer, or no such item.
 */
export function batchItem<T extends object>(
  results: { statusCode: number; result: T | ErrorList }[] | undefined,
  index: number,
): { ok: T } | { error: string } | undefined {
  const item = results?.[index];
  if (!item) return undefined;
  if (item.statusCode === 200 && !Array.isArray(item.result)) return { ok: item.result };
  const errors = Array.isArray(item.result) ? item.result : [];
  return { error: errors.map((error) => error.message).join(' ') || `The server answered ${item.statusCode}.` };
}

/** The column that names a related record (the one linking to it by its Id), else the first. */
export function titleColumnOf(columns: Column[]): Column | undefined {
  return columns.find((column) => column.lookupId === 'Id') ?? columns[0];
}

/**
 * A related record as a card shows it: its title (the title column's value, else its Name, else its id) and
 * the other columns as label and text.
 */
export function relatedRecordOf(
  record: RecordRepresentation,
  columns: Column[],
): { title: string; fields: { label: string; text: string }[] } {
  const titleColumn = titleColumnOf(columns);
  const title =
    (titleColumn && displayText(fieldAt(record, titleColumn.fieldApiName))) ||
    displayText(record.fields.Name) ||
    record.id;
  return {
    title,
    fields: columns
      .filter((column) => column !== titleColumn)
      .map((column) => ({ label: column.label, text: displayText(fieldAt(record, column.fieldApiName)) })),
  };
}
