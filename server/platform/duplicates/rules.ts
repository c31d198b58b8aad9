/**
 * Duplicate rules as org metadata (metadata/duplicate-rules/<object>.json): matching rules (fields compared
 * exactly or fuzzily) and the duplicate rules that apply them, with their filters and what they do on create
 * and update (allow with an alert, or block). This file reads the definitions and gives the configuration as
 * GET /duplicates/{objectApiName} answers it. Pure apart from reading the files once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Schemas } from '../../../generated/types.ts';
import type { DescribedObject } from '../core/describe.ts';
import { etagOf } from '../core/etag.ts';

const RULES_DIR = resolve(import.meta.dirname, '../metadata/duplicate-rules');

export interface MatchFieldDefinition {
  field: string;
  method: 'Exact' | 'Fuzzy';
  /** Fuzzy: the least trigram similarity (0.3 to 1) of two values that match. */
  threshold?: number;
}

export interface MatchRuleDefinition {
  name: string;
  fields: MatchFieldDefinition[];
}

interface RuleFilterDefinition {
  field: string;
  operation: 'equals' | 'notEqual';
  value: string;
}

export interface DuplicateRuleDefinition {
  name: string;
  active: boolean;
  actionOnInsert: 'Allow' | 'Block';
  actionOnUpdate: 'Allow' | 'Block';
  operationsOnInsert: string[];
  operationsOnUpdate: string[];
  /** The message of the duplicate error a write meets. */
  alertText: string;
  /** The record being saved must meet every one for the rule to apply. */
  filters: RuleFilterDefinition[];
  /** Names of matching rules of the same file. */
  matchRules: string[];
}

interface DuplicateRulesDefinition {
  objectApiName: string;
  predupeEnabled: boolean;
  matchRules: MatchRuleDefinition[];
  duplicateRules: DuplicateRuleDefinition[];
}

let definitions: Map<string, DuplicateRulesDefinition> | undefined;

/** Every object's duplicate rules, by object API name. */
function duplicateRuleDefinitions(): Map<string, DuplicateRulesDefinition> {
  definitions ??= new Map(
    readdirSync(RULES_DIR)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(resolve(RULES_DIR, name), 'utf8')) as DuplicateRulesDefinition)
      .map((definition) => [definition.objectApiName, definition]),
  );
  return definitions;
}

/** The object's duplicate rules; an object without a file has none. */
export function rulesOf(object: DescribedObject): DuplicateRulesDefinition {
  return (
    duplicateRuleDefinitions().get(object.apiName) ?? {
      objectApiName: object.apiName,
      predupeEnabled: false,
      matchRules: [],
      duplicateRules: [],
    }
  );
}

/** The matching rules a duplicate rule applies, in its order. */
export function matchRulesOf(rules: DuplicateRulesDefinition, rule: DuplicateRuleDefinition): MatchRuleDefinition[] {
  return rule.matchRules.map((name) => {
    const match = rules.matchRules.find((candidate) => candidate.name === name);
    if (!match) throw new Error(`Duplicate rule ${rule.name} of ${rules.objectApiName} names no matching rule ${name}`);
    return match;
  });
}

const withETag = <T extends object>(value: T): T & { eTag: string } => ({ ...value, eTag: etagOf(value) });

const labelOf = (object: DescribedObject, field: string) => object.fieldsByName.get(field)?.label ?? field;

/** A filter in words, as the platform gives it: `Contact Us: Default Contact EQUALS False`. */
function criteria(object: DescribedObject, filters: RuleFilterDefinition[]): string {
  const words = { equals: 'EQUALS', notEqual: 'NOT EQUAL TO' };
  const value = (text: string) => (text === 'true' ? 'True' : text === 'false' ? 'False' : text);
  return filters
    .map(
      (filter) =>
        `${object.definition.label}: ${labelOf(object, filter.field)} ${words[filter.operation]} ${value(filter.value)}`,
    )
    .join(' AND ');
}

/** GET /duplicates/{objectApiName}: the object's duplicate configuration. */
export function duplicateConfiguration(object: DescribedObject): Schemas['DuplicatesConfigurationRepresentation'] {
  const rules = rulesOf(object);
  const active = rules.duplicateRules.filter((rule) => rule.active);
  const dedupeFields = [
    ...new Set(
      active.flatMap((rule) => matchRulesOf(rules, rule).flatMap((match) => match.fields.map((field) => field.field))),
    ),
  ];
  return withETag({
    apiName: object.apiName,
    dedupeEnabled: active.length > 0,
    dedupeFields,
    duplicateRules: rules.duplicateRules.map((rule) =>
      withETag({
        actionOnInsert: rule.actionOnInsert,
        actionOnUpdate: rule.actionOnUpdate,
        active: rule.active,
        duplicateRuleFilters:
          rule.filters.length === 0
            ? []
            : [
                withETag({
                  booleanFilter: '',
                  filterItems: rule.filters.map((filter, index) =>
                    withETag({
                      field: filter.field,
                      operation: filter.operation,
                      sortOrder: index + 1,
                      value: filter.value,
                    }),
                  ),
                  ruleCritera: criteria(object, rule.filters),
                }),
              ],
        matchRules: matchRulesOf(rules, rule).map((match) =>
          withETag({
            matchEngine: match.fields.some((field) => field.method === 'Fuzzy')
              ? ('FuzzyMatchEngine' as const)
              : ('ExactMatchEngine' as const),
            matchFields: match.fields.map((field) => field.field),
            name: match.name,
            objectApiName: object.apiName,
          }),
        ),
        name: rule.name,
        operationsOnInsert: rule.operationsOnInsert,
        operationsOnUpdate: rule.operationsOnUpdate,
      }),
    ),
    predupeEnabled: rules.predupeEnabled && active.length > 0,
  });
}
