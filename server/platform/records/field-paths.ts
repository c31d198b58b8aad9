/**
 * Field paths of the record API (`Object.Field`, `Object.Relationship.Field` ...), parsed and resolved
 * against the org's metadata into a selection: per object, the fields to read and the relationships to
 * follow. Pure functions: no HTTP, no database.
 */
import { PlatformError } from '../core/errors.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { fieldPermissions, objectPermissions, type Principal } from '../core/principal.ts';

/** A path has at most this many levels, the object's name included: the platform's limit on field paths. */
const MAX_PATH_LEVELS = 6;
/** Relationships followed by one path, at most (the levels between the object and the field). */
export const MAX_INTERMEDIATE_LEVELS = 5;

/** Fields the platform adds to every related record besides those asked for, when its object has them. */
export const COMPANION_FIELDS = ['CreatedDate', 'Id', 'LastModifiedById', 'LastModifiedDate', 'SystemModstamp'];
export const DEFAULT_RELATED_NAME_FIELD = 'Name';

export interface FieldPath {
  objectApiName: string;
  /** The relationship names to follow, then the field: at least one name. */
  names: string[];
}

/** The paths of a comma-separated list; empty entries are ignored. */
export function splitFieldList(text: string | undefined | null): string[] {
  if (!text) return [];
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Parses `Object.Name1.Name2...`; null when the text is not a qualified path. */
export function parseFieldPath(text: string): FieldPath | null {
  const parts = text.split('.');
  if (parts.length < 2 || parts.some((part) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(part))) return null;
  return { objectApiName: parts[0], names: parts.slice(1) };
}

/** Whether a path is within the depth limits: at most 6 levels, at most 5 of them between object and field. */
export function withinDepth(path: FieldPath): boolean {
  return path.names.length + 1 <= MAX_PATH_LEVELS && path.names.length - 1 <= MAX_INTERMEDIATE_LEVELS;
}

/**
 * Parses required and optional field lists. A required path that is not qualified or too deep fails the
 * request; an optional one deeper than the limits is cut (left out), as the platform does.
 */
export function parseFieldLists(
  required: string[],
  optional: string[],
): { required: FieldPath[]; optional: FieldPath[] } {
  const parse = (text: string, parameter: string) => {
    const path = parseFieldPath(text);
    if (!path)
      throw new PlatformError(
        400,
        'ILLEGAL_QUERY_PARAMETER_VALUE',
        `Expected '.' in all qualified names: ${text} is invalid (${parameter})`,
      );
    return path;
  };
  const requiredPaths = required.map((text) => parse(text, 'fields'));
  const tooDeep = requiredPaths.find((path) => !withinDepth(path));
  if (tooDeep) {
    const text = [tooDeep.objectApiName, ...tooDeep.names].join('.');
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      `Illegal value for query parameter 'fields': ${text} has more than ${MAX_PATH_LEVELS} levels`,
    );
  }
  return {
    required: requiredPaths,
    optional: optional.map((text) => parse(text, 'optionalFields')).filter(withinDepth),
  };
}

export interface RelationshipSelection {
  /** The reference field that holds the related record's id (AccountId for Account). */
  field: FieldDefinition;
  target: DescribedObject;
  selection: ObjectSelection;
}

/** What to read of the records of one object. */
export interface ObjectSelection {
  object: DescribedObject;
  /** Scalar fields by API name, in the order first asked. */
  fields: Map<string, FieldDefinition>;
  /** Relationships to follow, by relationship name. */
  relationships: Map<string, RelationshipSelection>;
}

export const emptySelection = (object: DescribedObject): ObjectSelection => ({
  object,
  fields: new Map(),
  relationships: new Map(),
});

export const invalidField = (objectApiName: string, path: string) =>
  new PlatformError(
    400,
    'INVALID_FIELD',
    `No such column '${path}' on entity '${objectApiName}'. If you are attempting to use a custom field, be sure to append the '__c' after the custom field name.`,
  );

/** The field of an object named, case-insensitively. */
export function fieldNamed(object: DescribedObject, name: string): FieldDefinition | undefined {
  const exact = object.fieldsByName.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  return object.fields.find((field) => field.apiName.toLowerCase() === lower);
}

/** The reference field whose relationship name is given (Account for AccountId), case-insensitively. */
export function relationshipNamed(object: DescribedObject, name: string): FieldDefinition | undefined {
  const lower = name.toLowerCase();
  return object.fields.find(
    (field) =>
      field.dataType === 'Reference' &&
      typeof field.relationshipName === 'string' &&
      field.relationshipName.toLowerCase() === lower,
  );
}

export const canReadField = (principal: Principal, object: DescribedObject, field: FieldDefinition) =>
  objectPermissions(principal, object.apiName).read && fieldPermissions(principal, object.apiName, field.apiName).read;

/** Adds the companion fields (and the name field) a related record always carries, where readable. */
function addCompanions(selection: ObjectSelection, principal: Principal): void {
  for (const name of [...COMPANION_FIELDS, DEFAULT_RELATED_NAME_FIELD]) {
    const field = selection.object.fieldsByName.get(name);
    if (field && !selection.fields.has(field.apiName) && canReadField(principal, selection.object, field))
      selection.fields.set(field.apiName, field);
  }
}

/**
 * Adds one path (already known to start at selection's object) to a selection. Returns false when the path
 * names something that does not exist or that the caller may not read; the selection is then unchanged
 * except for relationships other paths share.
 */
export function addPath(org: OrgDescribe, principal: Principal, selection: ObjectSelection, names: string[]): boolean {
  const [name, ...rest] = names;
  if (rest.length === 0) {
    const field = fieldNamed(selection.object, name);
    if (!field || !canReadField(principal, selection.object, field)) return false;
    selection.fields.set(field.apiName, field);
    return true;
  }
  const reference = relationshipNamed(selection.object, name);
  if (!reference || !canReadField(principal, selection.object, reference)) return false;
  const target = org.objects.get(reference.referenceTo?.[0] ?? '');
  if (!target || !objectPermissions(principal, target.apiName).read) return false;
  const relationshipName = reference.relationshipName as string;
  let related = selection.relationships.get(relationshipName);
  const created = !related;
  if (!related) {
    related = { field: reference, target, selection: emptySelection(target) };
    addCompanions(related.selection, principal);
  }
  if (!addPath(org, principal, related.selection, rest)) return false;
  if (created) selection.relationships.set(relationshipName, related);
  return true;
}

/**
 * The selection for the records of one object: required paths that do not resolve fail with 400
 * INVALID_FIELD (a field the caller may not read is treated as unknown); optional ones are left out.
 * Paths of other objects are ignored (a batch may mix objects).
 */
export function selectFields(
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  paths: { required: FieldPath[]; optional: FieldPath[] },
): ObjectSelection {
  const selection = emptySelection(object);
  const ofObject = (path: FieldPath) => path.objectApiName.toLowerCase() === object.apiName.toLowerCase();
  for (const path of paths.required.filter(ofObject)) {
    if (!addPath(org, principal, selection, path.names)) throw invalidField(object.apiName, path.names.join('.'));
  }
  for (const path of paths.optional.filter(ofObject)) addPath(org, principal, selection, path.names);
  return selection;
}

/** Every field a selection reads, as `Object.Path` strings (the fields of child-record page URLs; tests). */
export function selectionPaths(selection: ObjectSelection, prefix = selection.object.apiName): string[] {
  const paths = [...selection.fields.keys()].map((name) => `${prefix}.${name}`);
  for (const [name, related] of selection.relationships)
    paths.push(...selectionPaths(related.selection, `${prefix}.${name}`));
  return paths;
}
