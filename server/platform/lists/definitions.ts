/**
 * What a list view is: its columns, filters (combined by a filter logic string), order, scope, visibility and
 * shares, as the org's metadata files (metadata/list-views/<Object>.json) and the create and update calls give
 * it. The org's own list views have no owner; a user's have their creator. `__Recent` names the caller's
 * most-recently-used list: a list view without an id, filters, scope or order of its own (its records come in
 * the order the caller used them). Pure types and functions.
 */
import type { Schemas } from '../../../generated/types.ts';

export type FilterOperator = Schemas['ListFilterByInfoRepresentation']['operator'];
type Visibility = Schemas['ListInfoRepresentation']['visibility'];

/** The API name of the most-recently-used list of every object. */
export const MRU_LIST_VIEW = '__Recent';
/** Key prefix of list view ids. */
export const LIST_VIEW_KEY_PREFIX = '00B';
/** The scopes a list view may have: all the records the caller may see, or only those it owns. */
export const SCOPES = ['everything', 'mine'] as const;
export type ScopeName = (typeof SCOPES)[number];

export interface ListFilterDefinition {
  /** A field path from the list's object (`Name`, `Owner.Name`). */
  fieldApiName: string;
  operator: FilterOperator;
  /** The values compared with; several are ORed (AND for the negative operators). */
  operandLabels: string[];
}

export interface ListOrderDefinition {
  fieldApiName: string;
  isAscending: boolean;
}

export interface ListViewDefinition {
  label: string;
  /** Field paths, in column order. */
  displayColumns: string[];
  filteredByInfo: ListFilterDefinition[];
  /** How the filters combine (`1 AND (2 OR 3)`); null: all ANDed. */
  filterLogicString: string | null;
  orderedByInfo: ListOrderDefinition[];
  /** null for the most-recently-used list. */
  scope: ScopeName | null;
  visibility: Visibility;
  /** `Role.RoleApiName` or `<GroupType>.GroupApiName`, for a Shared list view. */
  listShares: string[];
}

/** A list view as stored. */
export interface ListView {
  /** 18 characters beginning 00B; null for the most-recently-used list. */
  id: string | null;
  objectApiName: string;
  apiName: string;
  /** The user who created it; null for the org's own list views. */
  ownerId: string | null;
  definition: ListViewDefinition;
}

/** One list view of a metadata file: its definition, its API name and (except __Recent) its id. */
interface ListViewFileEntry extends Partial<ListViewDefinition> {
  id?: string;
  apiName: string;
  label: string;
  displayColumns: string[];
}

export interface ListViewFile {
  objectApiName: string;
  listViews: ListViewFileEntry[];
}

export const isMruList = (view: Pick<ListView, 'apiName'>) => view.apiName === MRU_LIST_VIEW;

/** A file entry with the attributes it leaves out at their defaults: no filters, no order, all records, Public. */
export function definitionOfEntry(entry: ListViewFileEntry): ListViewDefinition {
  const mru = isMruList(entry);
  return {
    label: entry.label,
    displayColumns: entry.displayColumns,
    filteredByInfo: entry.filteredByInfo ?? [],
    filterLogicString: entry.filterLogicString ?? null,
    orderedByInfo: entry.orderedByInfo ?? [],
    scope: mru ? null : (entry.scope ?? 'everything'),
    visibility: entry.visibility ?? (mru ? 'Private' : 'Public'),
    listShares: entry.listShares ?? [],
  };
}
