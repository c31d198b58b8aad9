/**
 * Required means always sent: a response property of the contract is required only where the platform has
 * always sent it, that is where the representation's v55 field list has it (tests/support/uiapi-v55-fields.json,
 * extracted once from the reference uiapi-types.md). A property added in a later version, or one of this
 * product's own, is optional, so that an answer of the platform satisfies the contract and a client written
 * against the contract does not count on what the platform may leave out.
 *
 * The test walks every response of every operation through its $refs, and lists every required property
 * whose schema (the nearest named component, and the path inside it) the v55 lists do not give that
 * property. Each must be on the allow-list below, with the reason; the allow-list must hold nothing stale.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, HTTP_METHODS } from '../support/contract.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

interface V55Representation {
  fields: string[];
  optional?: string[];
  inherits?: string;
}
const v55 = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../support/uiapi-v55-fields.json'), 'utf8')) as {
    representations: Record<string, V55Representation>;
  }
).representations;

/** The fields the platform always sent in a v55 representation: its own and its base type's, less the optional ones. */
function alwaysSent(name: string): Set<string> | undefined {
  const representation = v55[name];
  if (!representation) return undefined;
  const fields = new Set(representation.fields.filter((field) => !representation.optional?.includes(field)));
  if (representation.inherits) for (const field of alwaysSent(representation.inherits) ?? []) fields.add(field);
  return fields;
}

const schemas = (contract.components as { schemas: Record<string, Json> }).schemas;
const COMPONENT = /^#\/components\/schemas\/(.+)$/;

/** A required property, by the component that holds it and the path to the object schema inside the component. */
interface RequiredProperty {
  component: string;
  /** Where in the component the object is ('' for the component itself, else like `.layouts{}{}`). */
  at: string;
  property: string;
}
const keyOf = (required: RequiredProperty) => `${required.component}${required.at}.${required.property}`;

/** Every required property of the schemas the responses of the contract use. */
function requiredResponseProperties(): RequiredProperty[] {
  const found = new Map<string, RequiredProperty>();
  const visitedComponents = new Set<string>();
  const walk = (schema: unknown, component: string, at: string) => {
    if (!isObject(schema)) return;
    if (typeof schema.$ref === 'string') {
      const name = COMPONENT.exec(schema.$ref)?.[1];
      if (name && !visitedComponents.has(name)) {
        visitedComponents.add(name);
        walk(schemas[name], name, '');
      }
      return;
    }
    for (const property of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      const entry = { component, at, property };
      found.set(keyOf(entry), entry);
    }
    for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {}))
      walk(sub, component, `${at}.${name}`);
    if (isObject(schema.additionalProperties)) walk(schema.additionalProperties, component, `${at}{}`);
    if (isObject(schema.items)) walk(schema.items, component, `${at}[]`);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const)
      for (const part of (schema[keyword] as unknown[] | undefined) ?? []) walk(part, component, at);
  };
  for (const item of Object.values(contract.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      for (const response of Object.values(operation.responses as Record<string, Json>)) {
        const resolved =
          typeof response.$ref === 'string'
            ? (contract.components as Record<string, Record<string, Json>>).responses[response.$ref.split('/').pop()!]
            : response;
        for (const media of Object.values((resolved.content ?? {}) as Record<string, Json>))
          walk(media.schema, '(inline)', '');
      }
    }
  }
  return [...found.values()];
}

/**
 * Representations of the contract that the v55 lists do not describe, by why; their required properties are
 * the ones they have always carried. A new representation must be put in one group here, on purpose.
 */
const NOT_IN_V55: Record<string, string[]> = {
  // This product's own answers: the storefront's server methods, the session and its token, uploads.
  product: [
    'ContactUsCard',
    'ContactUsRepresentative',
    'ContactsResult',
    'ContentDocumentCompositeRepresentation',
    'CsrfTokenRepresentation',
    'DefaultContact',
    'InquiryForm',
    'InquiryResult',
    'NearestContact',
    'NearestContactsResult',
    'PlaceSuggestion',
    'SessionRepresentation',
  ],
  // The platform's error shapes (platform-api.md §2, §3.1): their code and message are always there.
  errors: ['ApexErrorRepresentation', 'ErrorRepresentation', 'ErrorWithOutputRepresentation'],
  // Connect REST, not the UI API (platform-api.md §4): CMS delivery (contentBody is the bundler's name for
  // ManagedContentDeliveryDocument's body, which ManagedContentReference refers to) and community SEO.
  connect: [
    'ManagedContentDeliveryChannelSummaryRepresentation',
    'ManagedContentDeliveryDocument',
    'ManagedContentDeliveryDocumentCollection',
    'ManagedContentReference',
    'ManagedContentTypeSummary',
    'RecordSeoPropertiesRepresentation',
    'contentBody',
  ],
  // UI API resources that came after v55 (platform-api.md §5; the docs): whole representations, sent with
  // these properties since they exist.
  uiApiAfterV55: [
    'ActionOverrideRepresentation',
    'BatchOperationResultRepresentation',
    'BatchOperationResultsRepresentation',
    'FormulaActivationRepresentation',
    'KeywordSearchResultsRepresentation',
    'KeywordSearchResultsSummaryRepresentation',
    'ListInfoShareCategoryRepresentation',
    'ListInfoShareRepresentation',
    'ListInfoSummaryCollectionRepresentation',
    'ListInfoSummaryRepresentation',
    'ListInlineEditDetailsRepresentation',
    'ListObjectColumnRepresentation',
    'ListObjectInfoRepresentation',
    'ListObjectPicklistValueRepresentation',
    'ListObjectScopeAvailableEntityRepresentation',
    'ListObjectScopeRepresentation',
    'ListPreferencesRepresentation',
    'ListScopeEntityRepresentation',
    'ListScopeRelatedEntityRepresentation',
    'ListScopeRepresentation',
    'LookupMetadataRepresentation',
    'LookupMetadataSearchInfoRepresentation',
    'LookupMetadataTargetInfoRepresentation',
    'QuickActionColorRepresentation',
    'QuickActionExecutionRepresentation',
    'QuickActionIconRepresentation',
    'QuickActionInfoRepresentation',
    'QuickActionParameterRepresentation',
    'SearchAnswerRepresentation',
    'SearchFilterAttributesRepresentation',
    'SearchFilterDefinitionRepresentation',
    'SearchFilterInputRepresentation',
    'SearchFilterMetadataCollectionRepresentation',
    'SearchFilterOptionCollectionRepresentation',
    'SearchFilterOptionRepresentation',
    'SearchHighlightInfoRepresentation',
    'SearchResultCollectionRepresentation',
    'SearchResultInfoRepresentation',
    'SearchResultRecordRepresentation',
    'SearchResultsSummaryRepresentation',
    // A picklist attributes subtype the v55 RAML does not have yet (work steps came later).
    'WorkStepStatusPicklistValueAttributesRepresentation',
  ],
};
const notInV55 = new Set(Object.values(NOT_IN_V55).flat());

/**
 * Required properties of v55 representations that their v55 field list does not have, each with the reason
 * it may stay required. Keep it short: the rule is that such a property is optional.
 */
const ALLOWED: Record<string, string> = {};

/** Where the rule puts a required property: sent by the platform since v55, in a representation v55 does not have, or neither. */
function verdict(required: RequiredProperty): 'v55' | 'not-in-v55' | 'allowed' | 'violation' {
  if (ALLOWED[keyOf(required)]) return 'allowed';
  const fields = alwaysSent(required.component);
  if (fields) return required.at === '' && fields.has(required.property) ? 'v55' : 'violation';
  return notInV55.has(required.component) ? 'not-in-v55' : 'violation';
}

describe('required response properties: required means always sent (the v55 field lists)', () => {
  const all = requiredResponseProperties();

  it('finds the response schemas, v55 representations among them', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((required) => verdict(required) === 'v55').length).toBeGreaterThan(100);
    expect(all.map(keyOf)).toContain('RecordRepresentation.apiName');
  });

  it('requires, of a v55 representation, only what its v55 field list has (or the allow-list says why)', () => {
    const violations = all
      .filter((required) => verdict(required) === 'violation' && alwaysSent(required.component))
      .map(keyOf)
      .sort();
    expect(violations, 'required properties the platform did not always send: make them optional').toEqual([]);
  });

  it('puts every other representation with required properties in a group of NOT_IN_V55', () => {
    const unclassified = [
      ...new Set(
        all
          .filter((required) => verdict(required) === 'violation' && !alwaysSent(required.component))
          .map((required) => required.component),
      ),
    ].sort();
    expect(
      unclassified,
      'representations the v55 lists do not describe: add each to a group of NOT_IN_V55, or rename it as the platform names it',
    ).toEqual([]);
  });

  it('holds nothing stale in the lists', () => {
    const components = new Set(all.map((required) => required.component));
    expect(
      [...notInV55].filter((name) => !components.has(name) || v55[name]),
      'NOT_IN_V55 names no response representation with required properties, or a v55 one',
    ).toEqual([]);
    const keys = new Set(all.map(keyOf));
    expect(
      Object.keys(ALLOWED).filter((key) => !keys.has(key)),
      'ALLOWED names a property that is not required',
    ).toEqual([]);
  });

  it('the v55 field lists know the representations of the record API', () => {
    for (const name of [
      'RecordRepresentation',
      'ObjectInfoRepresentation',
      'RecordLayoutUserStateRepresentation',
      'RecordDefaultsRepresentation',
    ])
      expect(v55[name], name).toBeDefined();
    expect(alwaysSent('RecordLayoutUserStateRepresentation')).toContain('sectionUserStates');
    // A discriminated subtype has its base type's fields too.
    expect(alwaysSent('FieldLayoutComponentRepresentation')).toEqual(new Set(['label', 'apiName', 'componentType']));
  });
});
