/**
 * The indexes of the record table that the org's related lists need, derived from their definitions
 * (metadata/related-lists) like the list views' (lists/indexes.ts), and kept in step with them at start by
 * the same code (derived-indexes.ts): for each related list of a layout, a partial index on
 * the child object led by the reference field that points at the parent, then the related list's default
 * order with the Id tie-break, in the expressions the query core writes. A parent's children are then read
 * from the index in that order, a page at a time, however many children the parent has. A key of the order
 * that cannot be indexed (a parent's field, a date kept as text) leaves the index on the reference field and
 * Id. The order a user chose (preferences) is not known at start and has no index of its own. Pure.
 */
import type { OrgDescribe } from '../core/describe.ts';
import { btree, orderElements, type IndexSpec } from '../lists/indexes.ts';
import { jsonKey } from '../query/sql.ts';
import { layoutRelatedLists, type RelatedListFile } from './definitions.ts';

/** The value of the child's reference field that the records of a related list are matched on (records.ts). */
export const parentReference = (fieldName: string, alias: string) => `(${alias}.fields ->> ${jsonKey(fieldName)})`;

/** Every index the related lists of the files need, each once, in a stable order. */
export function orgRelatedListIndexes(org: OrgDescribe, files: Iterable<RelatedListFile>): IndexSpec[] {
  const byName = new Map<string, IndexSpec>();
  for (const file of files) {
    const parent = org.objects.get(file.parentObjectApiName);
    if (!parent) continue;
    for (const layout of file.layouts) {
      for (const { entry, relationship } of layoutRelatedLists(parent, layout)) {
        const child = org.objects.get(relationship.childObjectApiName);
        if (!child) continue;
        const order = orderElements(org, child, entry.orderedBy ?? []) ?? ['(record.id)'];
        const index = btree(child, [parentReference(relationship.fieldName, 'record'), ...order]);
        byName.set(index.name, index);
      }
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
