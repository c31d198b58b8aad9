/** The shapes of the org's metadata files (metadata/objects/*.json): objects, fields, record types, picklists. */
import type { Schemas } from '../../../generated/types.ts';

/** One value of a fixed picklist: its label, the controlling values it is valid for, whether it is the default. */
interface PicklistValueDefinition {
  value: string;
  label?: string;
  default?: boolean;
  /** For a dependent picklist: the controlling field's values this value may go with. */
  validFor?: string[];
  /** Extra facts of values of some standard picklists (CaseStatus, OpportunityStage ...). */
  attributes?: Schemas['PicklistValueRepresentation']['attributes'];
}

export type PicklistSource = { values: (string | PicklistValueDefinition)[] } | { source: 'countries' | 'states' };

export interface FieldDefinition {
  apiName: string;
  label: string;
  dataType: Schemas['FieldRepresentation']['dataType'];
  length: number;
  custom?: boolean;
  required?: boolean;
  createable?: boolean;
  updateable?: boolean;
  calculated?: boolean;
  nameField?: boolean;
  filterable?: boolean;
  sortable?: boolean;
  unique?: boolean;
  controllerName?: string;
  referenceTo?: string[];
  relationshipName?: string;
  picklist?: PicklistSource;
  inlineHelpText?: string;
  extraTypeInfo?: Schemas['FieldRepresentation']['extraTypeInfo'];
  compound?: boolean;
  compoundComponentName?: string;
  compoundFieldName?: string;
  precision?: number;
  scale?: number;
  [more: string]: unknown;
}

export interface RecordTypeDefinition {
  id: string;
  name: string;
  developerName: string;
  isDefault?: boolean;
  available?: boolean;
  /** The values each picklist offers records of this type, a subset of the field's values; absent, all of them. */
  picklistValues?: Record<string, string[]>;
  /** The default value of a picklist for records of this type, in place of the field's own. */
  picklistDefaults?: Record<string, string | null>;
}

export interface ObjectDefinition {
  apiName: string;
  label: string;
  labelPlural: string;
  keyPrefix: string;
  custom: boolean;
  nameFields: string[];
  themeInfo: { color: string; iconUrl: string | null } | null;
  flags: Record<string, boolean>;
  recordTypes: RecordTypeDefinition[];
  fields: FieldDefinition[];
}
