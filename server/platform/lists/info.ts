/**
 * The ListInfoRepresentation of a list view as the caller sees it: the columns it may read (a column of a
 * field it may not read is left out, as a field that does not exist would be), the filters, the order (its
 * own, or the caller's from its preferences), the sharing, and the caller's rights and column preferences.
 * The eTag is a hash of the rest: it changes whenever the list view, or what the caller sees of it, does.
 * Pure functions.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';
import { PlatformError } from '../core/errors.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { objectPermissions } from '../core/principal.ts';
import { isSortable, resolvePath, rootScope, type ResolvedField } from '../query/fields.ts';
import { searchableFields } from '../query/search-term.ts';
import { SqlParameters } from '../query/sql.ts';
import type { QueryTarget } from '../query/target.ts';
import { relationshipNamed } from '../records/field-paths.ts';
import { listSharesRepresentation, listViewRights } from './access.ts';
import type { ListContext } from './context.ts';
import { isMruList, type ListOrderDefinition, type ListView, type ScopeName } from './definitions.ts';
import { fieldAtPath } from './filters.ts';
import type { ListPreferences } from './store.ts';

export type ListInfo = Schemas['ListInfoRepresentation'];
type ListReference = Schemas['ListReferenceRepresentation'];
type ListColumn = Schemas['ListColumnRepresentation'];
type OrderedBy = Schemas['ListOrderByInfoRepresentation'];

export function listReference(view: ListView): ListReference {
  return {
    id: view.id,
    listViewApiName: view.apiName,
    objectApiName: view.objectApiName,
    type: isMruList(view) ? 'mru' : 'listView',
  };
}

/** A path resolved as the caller may read it; undefined when it names something unknown or unreadable. */
export function readablePath(target: QueryTarget, path: string): ResolvedField | undefined {
  try {
    return resolvePath(target, path, new SqlParameters(), rootScope(target.object, 'r'));
  } catch (error) {
    if (error instanceof PlatformError) return undefined;
    throw error;
  }
}

/** The label of a path: the field's, after its relationship's for a parent's field (`Owner Name`). */
export function pathLabel(org: OrgDescribe, object: DescribedObject, path: string): string {
  const resolved = fieldAtPath(org, object, path);
  if (!resolved) return path;
  if (resolved.names.length === 1) return resolved.field.label;
  let current = object;
  let reference: FieldDefinition | undefined;
  for (const name of resolved.names.slice(0, -1)) {
    reference = relationshipNamed(current, name);
    current = org.objects.get(reference?.referenceTo?.[0] ?? '') ?? current;
  }
  // `Owner ID` names the relationship Owner; a reference label without the suffix gives way to the relationship name.
  const label = reference?.label ?? '';
  const relationship = /\s+ID$/.test(label)
    ? label.replace(/\s+ID$/, '')
    : String(reference?.relationshipName ?? label);
  return `${relationship} ${resolved.field.label}`.trim();
}

const isNameField = (object: DescribedObject, field: FieldDefinition) =>
  field.nameField === true || object.definition.nameFields[0] === field.apiName;

/** A display column the caller may read, or undefined. */
function column(context: Pick<ListContext, 'org' | 'object' | 'target'>, path: string): ListColumn | undefined {
  const resolved = readablePath(context.target, path);
  if (!resolved) return undefined;
  const { field, scope } = resolved;
  const parent = scope.path.join('.');
  return {
    fieldApiName: resolved.path,
    label: pathLabel(context.org, context.object, resolved.path),
    lookupId: isNameField(scope.object, field) ? (parent ? `${parent}.Id` : 'Id') : null,
    searchable: scope.path.length === 0 && searchableFields(context.target, [field.apiName]).length > 0,
    sortable: isSortable(field),
  };
}

/** The columns of a list view that the caller may read, in order. */
export function displayColumns(context: Pick<ListContext, 'org' | 'object' | 'target' | 'view'>): ListColumn[] {
  return context.view.definition.displayColumns
    .map((path) => column(context, path))
    .filter((one): one is ListColumn => one !== undefined);
}

/** An order (a list view's, or preferences') as the platform lists it, keeping the keys the caller may read. */
export function orderedByInfo(
  context: Pick<ListContext, 'org' | 'object' | 'target'>,
  order: ListOrderDefinition[],
): OrderedBy[] {
  return order.flatMap((key) => {
    const resolved = readablePath(context.target, key.fieldApiName);
    return resolved
      ? [
          {
            fieldApiName: resolved.path,
            isAscending: key.isAscending,
            label: pathLabel(context.org, context.object, resolved.path),
          },
        ]
      : [];
  });
}

/** The order the list's records come in when the request names none: the caller's own, else the list view's. */
export function effectiveOrder(view: ListView, preferences: ListPreferences): ListOrderDefinition[] {
  return preferences.orderedBy.length > 0 ? preferences.orderedBy : view.definition.orderedByInfo;
}

export function scopeLabel(object: DescribedObject, scope: ScopeName): string {
  return `${scope === 'mine' ? 'My' : 'All'} ${object.definition.labelPlural}`;
}

export function buildListInfo(context: ListContext): ListInfo {
  const { object, principal, view, preferences } = context;
  const { definition } = view;
  const mru = isMruList(view);
  const columns = displayColumns(context);
  const canEdit = objectPermissions(principal, object.apiName).edit && object.definition.flags?.updateable !== false;
  const info: Omit<ListInfo, 'eTag'> = {
    ...listViewRights(principal, object, view),
    displayColumns: columns,
    filterLogicString: definition.filterLogicString,
    filteredByInfo: definition.filteredByInfo.map((filter) => ({
      fieldApiName: filter.fieldApiName,
      label: pathLabel(context.org, object, filter.fieldApiName),
      operandLabels: filter.operandLabels,
      operator: filter.operator,
    })),
    hasMassActions: false,
    inlineEditDetails: mru
      ? null
      : canEdit
        ? { message: null, state: 'Enabled' }
        : { message: `You don't have permission to edit ${object.definition.labelPlural}.`, state: 'Disabled' },
    label: definition.label,
    listReference: listReference(view),
    listShares: listSharesRepresentation(definition.listShares),
    objectApiNames: [object.apiName],
    orderedByInfo: orderedByInfo(context, effectiveOrder(view, preferences)),
    scope:
      definition.scope === null
        ? null
        : { apiName: definition.scope, entity: null, label: scopeLabel(object, definition.scope), relatedEntity: null },
    searchable: !mru && columns.some((one) => one.searchable),
    userPreferences: { columnWidths: preferences.columnWidths, columnWrap: preferences.columnWrap },
    visibility: definition.visibility,
  };
  return withEtag(info);
}

/** The representation with its eTag, keys in the platform's (alphabetical) order. */
function withEtag(info: Omit<ListInfo, 'eTag'>): ListInfo {
  const {
    cloneable,
    createable,
    deletable,
    displayColumns: columns,
    filterLogicString,
    filteredByInfo,
    hasMassActions,
    inlineEditDetails,
    label,
    listReference: reference,
    listShares,
    objectApiNames,
    orderedByInfo: order,
    scope,
    searchable,
    updateable,
    userPreferences,
    visibility,
    visibilityEditable,
  } = info;
  return {
    cloneable,
    createable,
    deletable,
    displayColumns: columns,
    eTag: etagOf(info),
    filterLogicString,
    filteredByInfo,
    hasMassActions,
    inlineEditDetails,
    label,
    listReference: reference,
    listShares,
    objectApiNames,
    orderedByInfo: order,
    scope,
    searchable,
    updateable,
    userPreferences,
    visibility,
    visibilityEditable,
  };
}
