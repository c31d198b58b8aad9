/**
 * Record rows by id, the related records a selection of fields reaches, and the representations built from
 * them: what every read of records (one, a batch, pages of lists, children, search results) is made of.
 */
import type { Queryable } from '../../db/connection.ts';
import type { Principal } from '../core/principal.ts';
import { canSeeRecord } from './access.ts';
import type { ObjectSelection } from './field-paths.ts';
import { picklistLabels } from './picklist-labels.ts';
import {
  buildRecord,
  RECORD_COLUMNS,
  type BuildContext,
  type PicklistLabels,
  type RecordRepresentation,
  type RecordRow,
} from './representation.ts';

/** The rows of the records with these ids (18 characters): those that exist. */
export async function fetchRows(q: Queryable, ids: string[]): Promise<Map<string, RecordRow>> {
  const rows = new Map<string, RecordRow>();
  if (ids.length === 0) return rows;
  // Prepared once per connection: its plan (by primary key) is the same for every list of ids.
  const result = await q.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[])`, [ids], {
    prepareAs: 'record_rows_by_ids',
  });
  for (const row of result.rows) rows.set(row.id, row);
  return rows;
}

/** Reads the related records a selection reaches, level by level, into `related` (and their ids into `reads`). */
export async function loadRelated(
  q: Queryable,
  start: { row: RecordRow; selection: ObjectSelection }[],
  related: Map<string, RecordRow>,
  reads?: Set<string>,
): Promise<void> {
  let pending = start;
  while (pending.length > 0) {
    const wanted = new Set<string>();
    for (const { row, selection } of pending) {
      for (const relationship of selection.relationships.values()) {
        const id = relationshipId(row, relationship.field.apiName);
        if (id && !related.has(id)) wanted.add(id);
      }
    }
    for (const id of wanted) reads?.add(id);
    for (const [id, row] of await fetchRows(q, [...wanted])) related.set(id, row);
    const next: typeof pending = [];
    for (const { row, selection } of pending) {
      for (const relationship of selection.relationships.values()) {
        const id = relationshipId(row, relationship.field.apiName);
        const relatedRow = id ? related.get(id) : undefined;
        if (relatedRow && relationship.selection.relationships.size > 0)
          next.push({ row: relatedRow, selection: relationship.selection });
      }
    }
    pending = next;
  }
}

function relationshipId(row: RecordRow, fieldApiName: string): string | undefined {
  const value =
    fieldApiName === 'CreatedById'
      ? row.created_by_id
      : fieldApiName === 'LastModifiedById'
        ? row.last_modified_by_id
        : row.fields[fieldApiName];
  return typeof value === 'string' ? value : undefined;
}

export const contextFor = (
  principal: Principal,
  related: Map<string, RecordRow>,
  picklistLabels: PicklistLabels,
): BuildContext => ({
  related,
  canSee: (row, object) => canSeeRecord(principal, object, row),
  picklistLabels,
});

/**
 * The representations of rows of one object with a selection's fields (related records nested, those the
 * caller may not see as null): the records of a page of a list.
 */
export async function buildRecords(
  db: Queryable,
  principal: Principal,
  rows: RecordRow[],
  selection: ObjectSelection,
): Promise<RecordRepresentation[]> {
  const related = new Map<string, RecordRow>();
  await loadRelated(
    db,
    rows.map((row) => ({ row, selection })),
    related,
  );
  const context = contextFor(principal, related, await picklistLabels(db));
  return rows.map((row) => buildRecord(row, selection, context));
}
