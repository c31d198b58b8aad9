/**
 * Related lists as data: metadata/related-lists/<ParentObject>.json gives, per parent object and record type,
 * the related lists its record page shows, in order, each with its columns, its default order and (optionally)
 * a filter on the related records, in the `where` form. A related list is one of the parent object's child
 * relationships (by default the one its id names); adding a related list means adding an entry. A child
 * relationship that no layout lists is still a related list: it has the child object's name field as its
 * only column and comes in Id order. The files ship with the code and are read once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChildRelationship, DescribedObject, DescribedRecordType } from '../core/describe.ts';

const RELATED_LISTS_DIR = resolve(import.meta.dirname, '../metadata/related-lists');

export interface RelatedListOrder {
  fieldApiName: string;
  isAscending: boolean;
}

/** One related list of a layout, as the data file writes it. */
interface RelatedListEntry {
  /** The id the related-list paths name it by; usually its child relationship's name, such as Contacts. */
  relatedListId: string;
  /** The child relationship it lists; absent, the one relatedListId names. */
  relationshipName?: string;
  /** Absent: the child object's plural label. */
  label?: string;
  /** The name its preferences id uses after the parent object (`Account.RelatedContactList`); absent, relatedListId. */
  preferencesName?: string;
  /** Field paths of the child object, in order. */
  displayColumns: string[];
  orderedBy?: RelatedListOrder[];
  /** A filter on the related records, in the `where` form, that every answer about the list applies. */
  where?: string;
}

export interface RelatedListLayout {
  /** Developer names of the parent object's record types the layout is for (Master for objects without). */
  recordTypes: string[];
  relatedLists: RelatedListEntry[];
}

export interface RelatedListFile {
  parentObjectApiName: string;
  layouts: RelatedListLayout[];
}

/** A related list resolved against the org: its entry (from a layout, or made up for an unlisted child relationship). */
export interface RelatedListDefinition {
  entry: RelatedListEntry;
  relationship: ChildRelationship;
  /** Whether a layout of the parent lists it (uiApiEnabledLayout). */
  onLayout: boolean;
}

let files: Map<string, RelatedListFile> | undefined;

/** Every file, by parent object API name. */
export function relatedListFiles(): Map<string, RelatedListFile> {
  if (!files) {
    files = new Map();
    if (existsSync(RELATED_LISTS_DIR)) {
      for (const name of readdirSync(RELATED_LISTS_DIR)
        .filter((one) => one.endsWith('.json'))
        .sort()) {
        const file = JSON.parse(readFileSync(resolve(RELATED_LISTS_DIR, name), 'utf8')) as RelatedListFile;
        files.set(file.parentObjectApiName, file);
      }
    }
  }
  return files;
}

/** The layout of a parent object's record type: the one naming its developer name, else the Master one, else none. */
export function layoutFor(
  parent: DescribedObject,
  recordType: DescribedRecordType | undefined,
): RelatedListLayout | undefined {
  const layouts = relatedListFiles().get(parent.apiName)?.layouts ?? [];
  const name = recordType?.developerName ?? 'Master';
  return (
    layouts.find((layout) => layout.recordTypes.includes(name)) ??
    layouts.find((layout) => layout.recordTypes.includes('Master'))
  );
}

const relationshipNamed = (parent: DescribedObject, name: string) =>
  parent.childRelationships.find((relationship) => relationship.relationshipName.toLowerCase() === name.toLowerCase());

/** The related lists of a layout, in order, that name a child relationship the parent has. */
export function layoutRelatedLists(
  parent: DescribedObject,
  layout: RelatedListLayout | undefined,
): RelatedListDefinition[] {
  return (layout?.relatedLists ?? []).flatMap((entry) => {
    const relationship = relationshipNamed(parent, entry.relationshipName ?? entry.relatedListId);
    return relationship ? [{ entry, relationship, onLayout: true }] : [];
  });
}

/**
 * A related list of a parent by id (any case): the layout's entry, else a child relationship of that name
 * with the child's name field as its column; undefined when there is neither.
 */
export function relatedListNamed(
  parent: DescribedObject,
  layout: RelatedListLayout | undefined,
  relatedListId: string,
  childNameField: (relationship: ChildRelationship) => string | undefined,
): RelatedListDefinition | undefined {
  const listed = layoutRelatedLists(parent, layout).find(
    (one) => one.entry.relatedListId.toLowerCase() === relatedListId.toLowerCase(),
  );
  if (listed) return listed;
  const relationship = relationshipNamed(parent, relatedListId);
  if (!relationship) return undefined;
  const name = childNameField(relationship);
  return {
    entry: { relatedListId: relationship.relationshipName, displayColumns: name ? [name] : [] },
    relationship,
    onLayout: false,
  };
}

/** The related list a preferences name stands for (`RelatedContactList`, or the related list id itself). */
export function relatedListIdOfPreferences(
  parent: DescribedObject,
  layout: RelatedListLayout | undefined,
  preferencesName: string,
): string {
  const lower = preferencesName.toLowerCase();
  const listed = layoutRelatedLists(parent, layout).find(
    (one) => (one.entry.preferencesName ?? one.entry.relatedListId).toLowerCase() === lower,
  );
  return listed?.entry.relatedListId ?? preferencesName;
}
