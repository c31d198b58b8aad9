/**
 * Actions as org metadata (metadata/actions/*.json): the platform's standard buttons (standard.json), the
 * global quick actions (Global.json), and per object its quick actions, where they are placed per record
 * type and section, the actions that create its records, overrides of its standard actions and the
 * formulas that activate actions per feature; and the Lightning pages (metadata/flexipages.json) with the
 * actions placed on them. Read from the files once; pure lookups otherwise.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LayoutSectionDefinition } from '../layouts/build.ts';
import type { FieldValue } from '../records/values.ts';

const ACTIONS_DIR = resolve(import.meta.dirname, '../metadata/actions');
const FLEXIPAGES_FILE = resolve(import.meta.dirname, '../metadata/flexipages.json');

export const SECTIONS = ['ActivityComposer', 'CollaborateComposer', 'Page', 'SingleActionLinks'] as const;
export type Section = (typeof SECTIONS)[number];
export type ActionListContext =
  | 'FlexiPage'
  | 'Global'
  | 'ListView'
  | 'ListViewRecord'
  | 'Lookup'
  | 'MruList'
  | 'ObjectHomeChart'
  | 'Photo'
  | 'Record'
  | 'RecordEdit'
  | 'RelatedList'
  | 'RelatedListRecord';

/** What the caller needs for a standard action to show: on the object (create) or on the record. */
type StandardRequirement = 'read' | 'create' | 'edit' | 'delete' | 'changeOwner';

export interface StandardActionDefinition {
  apiName: string;
  label: string;
  contexts: ActionListContext[];
  requires: StandardRequirement;
  /** Shown only on a record that has a photo (record avatar). */
  needsPhoto?: boolean;
}

type QuickActionType = 'Create' | 'Update' | 'LogACall';

interface QuickActionDefinition {
  /** The name after the object's (or Global's) prefix: `Account.New_Contact` is New_Contact of Account. */
  name: string;
  label: string;
  type: QuickActionType;
  externalId: string;
  /** The object whose record the action creates or updates. */
  targetObject: string;
  /** For an action that creates a related record: the new record's field that points at the context record. */
  targetParentField?: string;
  /** The values the new (or updated) record gets unless the user gives others. */
  predefinedValues?: Record<string, FieldValue>;
  successMessage?: string;
  icon: string;
  /** The icon family, custom (the default) or standard. */
  iconSet?: 'custom' | 'standard';
  color: string;
  /** The action's form, as sections of a record layout of the target object. */
  layout: LayoutSectionDefinition[];
}

interface ActionPlacement {
  /** Record types by developer name ("Master" for the master record type, "*" for any); the last match wins. */
  recordTypes: string[];
  sections: Partial<Record<Section, string[]>>;
}

interface ObjectActionsFile {
  objectApiName: string;
  quickActions: QuickActionDefinition[];
  placements?: ActionPlacement[];
  /** For Global.json: the global actions by section. */
  sections?: Partial<Record<Section, string[]>>;
  /** The actions that create the object's records (New, create quick actions). */
  createActions?: string[];
  /** Standard actions (New, Edit, View ...) an administrator replaced, with the page or component they lead to. */
  overrides?: Record<string, string>;
  /** By action feature, then action API name: the formula that decides whether the action shows. */
  formulaActivation?: Record<string, Record<string, string>>;
}

/** A quick action with its full API name and the object it belongs to ("Global" for a global action). */
export interface QuickAction extends QuickActionDefinition {
  apiName: string;
  contextObject: string;
}

/** A Lightning page and the actions placed on it, by section. */
export interface FlexipageDefinition {
  developerName: string;
  label: string;
  type: 'AppPage' | 'HomePage' | 'RecordPage';
  /** For a record page, the object whose records it shows. */
  objectApiName?: string;
  sections: Partial<Record<Section, string[]>>;
}

export interface ActionCatalog {
  standard: StandardActionDefinition[];
  /** Lightning pages by lower-cased developer name. */
  flexipages: Map<string, FlexipageDefinition>;
  /** Files by object API name, Global included. */
  objects: Map<string, ObjectActionsFile>;
  /** Quick actions by lower-cased API name. */
  quickActions: Map<string, QuickAction>;
}

let catalog: ActionCatalog | undefined;

const readJson = <T>(name: string): T => JSON.parse(readFileSync(resolve(ACTIONS_DIR, name), 'utf8')) as T;

export function loadActions(): ActionCatalog {
  if (catalog) return catalog;
  const standard = readJson<{ actions: StandardActionDefinition[] }>('standard.json').actions;
  const objects = new Map<string, ObjectActionsFile>();
  const quickActions = new Map<string, QuickAction>();
  for (const name of readdirSync(ACTIONS_DIR).sort()) {
    if (!name.endsWith('.json') || name === 'standard.json') continue;
    const file = readJson<ObjectActionsFile>(name);
    objects.set(file.objectApiName, file);
    for (const action of file.quickActions) {
      const apiName = `${file.objectApiName}.${action.name}`;
      quickActions.set(apiName.toLowerCase(), { ...action, apiName, contextObject: file.objectApiName });
    }
  }
  const flexipages = new Map(
    (JSON.parse(readFileSync(FLEXIPAGES_FILE, 'utf8')) as { flexipages: FlexipageDefinition[] }).flexipages.map(
      (page) => [page.developerName.toLowerCase(), page],
    ),
  );
  catalog = { standard, flexipages, objects, quickActions };
  return catalog;
}

export function quickActionNamed(apiName: string): QuickAction | undefined {
  return loadActions().quickActions.get(apiName.toLowerCase());
}

export function standardActionNamed(apiName: string): StandardActionDefinition | undefined {
  return loadActions().standard.find((action) => action.apiName.toLowerCase() === apiName.toLowerCase());
}

/** The icon URLs of a quick action: the 120-pixel picture and the scalable one. */
export function iconUrls(action: Pick<QuickActionDefinition, 'icon' | 'iconSet'>): { png: string; svg: string } {
  const base = `/img/icon/t4v35/${action.iconSet ?? 'custom'}/${action.icon}`;
  return { png: `${base}_120.png`, svg: `${base}.svg` };
}

/** The sections and actions placed for a record type (by developer name): the last placement naming it, or "*". */
export function placementFor(
  file: ObjectActionsFile | undefined,
  recordTypeDeveloperName: string,
): Partial<Record<Section, string[]>> {
  const placements = file?.placements ?? [];
  const exact = placements.filter((placement) => placement.recordTypes.includes(recordTypeDeveloperName));
  const any = placements.filter((placement) => placement.recordTypes.includes('*'));
  return (exact.at(-1) ?? any.at(-1))?.sections ?? {};
}

/** The standard actions an administrator may override. */
export const OVERRIDABLE_ACTIONS = ['New', 'Edit', 'View', 'Clone', 'Delete', 'List', 'Tab'];

/** What an object definition must tell the check of the action files. */
interface ObjectShape {
  apiName: string;
  recordTypes: { developerName: string }[];
  fields: {
    apiName: string;
    dataType: string;
    referenceTo?: string[];
    createable?: boolean;
    updateable?: boolean;
    calculated?: boolean;
  }[];
}

/**
 * The problems of the action files against the org's objects: unknown objects, fields, record types and
 * actions, parent fields that do not point at the object an action is launched from, predefined values on
 * fields the action's write may not set. Empty when the files are sound.
 */
export function actionFileProblems(actions: ActionCatalog, objects: ObjectShape[]): string[] {
  const problems: string[] = [];
  const byName = new Map(objects.map((object) => [object.apiName, object]));
  const knownAction = (name: string) => !!standardActionNamed(name) || actions.quickActions.has(name.toLowerCase());
  for (const [objectApiName, file] of actions.objects) {
    const where = `${objectApiName}.json`;
    const object = byName.get(objectApiName);
    if (objectApiName !== 'Global' && !object) problems.push(`${where}: no object ${objectApiName}`);
    for (const action of file.quickActions) {
      const name = `${objectApiName}.${action.name}`;
      const target = byName.get(action.targetObject);
      if (!target) {
        problems.push(`${name}: no target object ${action.targetObject}`);
        continue;
      }
      if (action.type === 'Update' && action.targetObject !== objectApiName)
        problems.push(`${name}: an update action changes records of its own object`);
      const field = (fieldName: string) => target.fields.find((candidate) => candidate.apiName === fieldName);
      if (action.targetParentField) {
        const parent = field(action.targetParentField);
        if (!parent || parent.dataType !== 'Reference' || !(parent.referenceTo ?? []).includes(objectApiName))
          problems.push(
            `${name}: ${action.targetParentField} is not a field of ${action.targetObject} pointing at ${objectApiName}`,
          );
      }
      for (const fieldName of Object.keys(action.predefinedValues ?? {})) {
        const predefined = field(fieldName);
        const writable =
          predefined &&
          !predefined.calculated &&
          (action.type === 'Update' ? predefined.updateable : predefined.createable) !== false;
        if (!writable) problems.push(`${name}: predefined value for ${fieldName}, which the action may not set`);
      }
      for (const cell of action.layout.flatMap((section) => section.rows.flat())) {
        const cellName = cell === null ? null : typeof cell === 'string' ? cell : cell.field;
        if (cellName !== null && !field(cellName))
          problems.push(`${name}: the layout names ${cellName}, not a field of ${action.targetObject}`);
      }
    }
    const recordTypes = new Set(['*', 'Master', ...(object?.recordTypes.map((type) => type.developerName) ?? [])]);
    for (const placement of file.placements ?? []) {
      for (const type of placement.recordTypes)
        if (!recordTypes.has(type)) problems.push(`${where}: no record type ${type}`);
    }
    const placed = [
      ...(file.placements ?? []).flatMap((placement) => Object.entries(placement.sections)),
      ...Object.entries(file.sections ?? {}),
    ];
    for (const [section, names] of placed) {
      if (!(SECTIONS as readonly string[]).includes(section)) problems.push(`${where}: no section ${section}`);
      for (const name of names ?? [])
        if (!knownAction(name)) problems.push(`${where}: ${section} places unknown action ${name}`);
    }
    for (const name of file.createActions ?? [])
      if (!knownAction(name)) problems.push(`${where}: unknown create action ${name}`);
    for (const type of Object.keys(file.overrides ?? {}))
      if (!OVERRIDABLE_ACTIONS.includes(type)) problems.push(`${where}: ${type} cannot be overridden`);
    for (const [feature, formulas] of Object.entries(file.formulaActivation ?? {})) {
      for (const name of Object.keys(formulas))
        if (!knownAction(name)) problems.push(`${where}: ${feature} activates unknown action ${name}`);
    }
  }
  for (const page of actions.flexipages.values()) {
    const where = `flexipages.json ${page.developerName}`;
    if (page.objectApiName !== undefined && !byName.has(page.objectApiName))
      problems.push(`${where}: no object ${page.objectApiName}`);
    for (const [section, names] of Object.entries(page.sections)) {
      if (!(SECTIONS as readonly string[]).includes(section)) problems.push(`${where}: no section ${section}`);
      for (const name of names ?? [])
        if (!knownAction(name)) problems.push(`${where}: ${section} places unknown action ${name}`);
    }
  }
  return problems;
}
