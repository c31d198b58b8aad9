/**
 * Finding duplicates in the database: each active duplicate rule whose filters the record meets runs its
 * matching rules, each one query over the object's records (exact fields compared case-insensitively, phone
 * numbers by their digits, fuzzy fields by trigram similarity). Used by POST /predupe and by every create
 * and update (a blocking rule, or an alerting one without allowSaveOnDuplicate, refuses the write with
 * DUPLICATES_DETECTED). Matches are only records the caller may see.
 */
import type { Schemas } from '../../../generated/types.ts';
import { inChunks } from '../../db/chunks.ts';
import type { Queryable } from '../../db/connection.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import type { DescribedObject } from '../core/describe.ts';
import type { Principal } from '../core/principal.ts';
import { canSeeRecord } from '../records/access.ts';
import type { RecordRow } from '../records/representation.ts';
import type { FieldValue } from '../records/values.ts';
import {
  recordError,
  RecordWriteError,
  WRITE_FAILED_MESSAGE,
  type RecordExceptionError,
  type WriteKind,
} from '../records/write-rules.ts';
import {
  matchRulesOf,
  rulesOf,
  type DuplicateRuleDefinition,
  type MatchFieldDefinition,
  type MatchRuleDefinition,
} from './rules.ts';

/** At most this many duplicates per matching rule. */
const MAX_MATCHES = 100;

export interface RuleMatch {
  rule: DuplicateRuleDefinition;
  match: MatchRuleDefinition;
  recordIds: string[];
  /** Whether the rule refuses the write (Block) rather than alerting (Allow). */
  blocks: boolean;
}

/** The schema pg_trgm is installed in (migration 014 puts it in public), quoted for SQL. */
export const trigramSchema = oncePerDatabase(async (db) => {
  const { rows } = await db.query<{ schema: string }>(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`,
  );
  if (!rows[0]) throw new Error('pg_trgm is not installed: fuzzy duplicate matching needs it (migration 014)');
  return `"${rows[0].schema.replace(/"/g, '""')}"`;
});

const textOf = (value: FieldValue | undefined) => (value === undefined || value === null ? '' : String(value));
const digitsOf = (text: string) => text.replace(/[^0-9]/g, '');
const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Whether the record meets the rule's filters; a boolean field left out counts as false, any other as blank. */
export function meetsFilters(
  object: DescribedObject,
  rule: DuplicateRuleDefinition,
  values: Record<string, FieldValue>,
): boolean {
  return rule.filters.every((filter) => {
    const field = object.fieldsByName.get(filter.field);
    const value = filter.field in values ? textOf(values[filter.field]) : field?.dataType === 'Boolean' ? 'false' : '';
    const equal = value.toLowerCase() === filter.value.toLowerCase();
    return filter.operation === 'equals' ? equal : !equal;
  });
}

interface Condition {
  /** The record's value the condition compares (as text: a phone's digits). */
  value: string;
  /** The condition on a stored record, given the SQL of that value (a parameter, or a column of the rows compared). */
  sql: (value: string, param: (value: unknown) => string, trigram: string) => string;
}

/** The condition one match field puts on a record; null when the record's value is blank (blank matches nothing). */
function conditionFor(
  object: DescribedObject,
  matchField: MatchFieldDefinition,
  values: Record<string, FieldValue>,
): Condition | null {
  const field = object.fieldsByName.get(matchField.field);
  if (!field || !SAFE_NAME.test(field.apiName))
    throw new Error(`Matching rule field ${matchField.field} is not a field of ${object.apiName}`);
  const text = textOf(values[field.apiName]).trim();
  if (text === '') return null;
  const column = `fields ->> '${field.apiName}'`;
  if (matchField.method === 'Fuzzy') {
    const threshold = matchField.threshold ?? 0.5;
    return {
      value: text,
      sql: (value, param, trigram) =>
        `${trigram}.similarity(lower(${column}), lower(${value})) >= ${param(threshold)}::real`,
    };
  }
  if (field.dataType === 'Phone') {
    const digits = digitsOf(text);
    if (digits === '') return null;
    return { value: digits, sql: (value) => `regexp_replace(${column}, '[^0-9]', '', 'g') = ${value}` };
  }
  return { value: text, sql: (value) => `lower(${column}) = lower(${value})` };
}

/** The records one matching rule finds for the values, that the caller may see, besides the record itself. */
async function runMatchRule(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  match: MatchRuleDefinition,
  values: Record<string, FieldValue>,
  excludeId: string | undefined,
): Promise<string[]> {
  const conditions = match.fields.map((field) => conditionFor(object, field, values));
  if (conditions.some((condition) => condition === null)) return [];
  const params: unknown[] = [object.apiName];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const trigram = match.fields.some((field) => field.method === 'Fuzzy') ? await trigramSchema(q) : '';
  const where = conditions.map((condition) => condition!.sql(`${param(condition!.value)}::text`, param, trigram));
  if (excludeId) where.push(`id <> ${param(excludeId)}`);
  const { rows } = await q.query<Pick<RecordRow, 'id' | 'fields' | 'created_by_id'>>(
    `SELECT id, fields, created_by_id FROM record WHERE object_api_name = $1 AND ${where.join(' AND ')} ORDER BY id LIMIT ${MAX_MATCHES * 2}`,
    params,
  );
  return rows
    .filter((row) => canSeeRecord(principal, object, row))
    .slice(0, MAX_MATCHES)
    .map((row) => row.id);
}

/** A record about to be written, as findDuplicates takes it: for findDuplicatesInBulk. */
export interface DuplicateCheck {
  kind: WriteKind;
  values: Record<string, FieldValue>;
  excludeId?: string;
  changedFields?: string[];
}

/** Values compared in bulk: the index of their check, its match fields' conditions, and the record it updates. */
export interface ComparedValues {
  index: number;
  conditions: Condition[];
  excludeId: string | null;
}

/**
 * The checks that one matching rule of a rule compares, with their conditions: those in the rule's filters, that
 * change one of its fields (a create, or an update naming them) and have a value for each. skip leaves out
 * others (by index) that its caller need not compare.
 */
export function comparedValues(
  object: DescribedObject,
  rule: DuplicateRuleDefinition,
  match: MatchRuleDefinition,
  checks: readonly DuplicateCheck[],
  skip: (index: number) => boolean = () => false,
): ComparedValues[] {
  const compared: ComparedValues[] = [];
  for (const [index, check] of checks.entries()) {
    if (skip(index) || !meetsFilters(object, rule, check.values)) continue;
    if (check.changedFields && !match.fields.some((field) => check.changedFields!.includes(field.field))) continue;
    const conditions = match.fields.map((field) => conditionFor(object, field, check.values));
    if (conditions.some((condition) => condition === null)) continue;
    compared.push({ index, conditions: conditions as Condition[], excludeId: check.excludeId ?? null });
  }
  return compared;
}

/**
 * The stored records one matching rule finds for each of the values (at most BULK_RECORDS), in one statement:
 * each with the index of its values. Each values' conditions look up the records through the rule's index, one
 * values at a time (a lateral subquery, kept from being merged into a join by OFFSET 0: as a join the planner,
 * which cannot tell how many records a value matches, sorted or scanned every record of the object for each
 * statement, 4 to 5 s per 5,000 rows at 1,000,000 records on PostgreSQL, against 0.7 to 1.4 s this way).
 */
export async function matchingRecords(
  q: Queryable,
  object: DescribedObject,
  match: MatchRuleDefinition,
  part: ComparedValues[],
  trigram: string,
): Promise<(Pick<RecordRow, 'id' | 'fields' | 'created_by_id'> & { index: number })[]> {
  const params: unknown[] = [
    object.apiName,
    part.map((one) => one.index),
    part.map((one) => one.excludeId),
    ...match.fields.map((_field, position) => part.map((one) => one.conditions[position].value)),
  ];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const names = match.fields.map((_field, position) => `value_${position}`);
  const where = part[0].conditions.map((condition, position) => condition.sql(`v.${names[position]}`, param, trigram));
  const arrays = match.fields.map((_field, position) => `$${position + 4}::text[]`);
  const { rows } = await q.query<Pick<RecordRow, 'id' | 'fields' | 'created_by_id'> & { index: number }>(
    `SELECT v.n AS index, r.id, r.fields, r.created_by_id
     FROM unnest($2::int[], $3::text[], ${arrays.join(', ')}) AS v(n, exclude_id, ${names.join(', ')})
     CROSS JOIN LATERAL (
       SELECT r.id, r.fields, r.created_by_id FROM record r
       WHERE r.object_api_name = $1 AND ${where.join(' AND ')} AND r.id IS DISTINCT FROM v.exclude_id
       OFFSET 0
     ) AS r
     ORDER BY v.n, r.id`,
    params,
  );
  return rows;
}

/** Records compared per statement by findDuplicatesInBulk. */
const BULK_RECORDS = 5000;

/**
 * findDuplicates for many records at once (an import's dry run): each matching rule of each active duplicate
 * rule is one statement per BULK_RECORDS records instead of one per record (matchingRecords), under the same
 * conditions as runMatchRule. The duplicates of each record, in the checks' order, as findDuplicates gives them.
 */
export async function findDuplicatesInBulk(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  checks: DuplicateCheck[],
): Promise<RuleMatch[][]> {
  const found = checks.map((): RuleMatch[] => []);
  const rules = rulesOf(object);
  for (const rule of rules.duplicateRules) {
    if (!rule.active) continue;
    for (const match of matchRulesOf(rules, rule)) {
      const compared = comparedValues(object, rule, match, checks);
      if (compared.length === 0) continue;
      const trigram = match.fields.some((field) => field.method === 'Fuzzy') ? await trigramSchema(q) : '';
      const chunks = await inChunks(compared, BULK_RECORDS, (part) => matchingRecords(q, object, match, part, trigram));
      for (const rows of chunks) {
        const byIndex = new Map<number, string[]>();
        for (const row of rows) {
          if (!canSeeRecord(principal, object, row)) continue;
          let ids = byIndex.get(row.index);
          if (!ids) byIndex.set(row.index, (ids = []));
          if (ids.length < MAX_MATCHES) ids.push(row.id);
        }
        for (const [index, recordIds] of byIndex) {
          const blocks = (checks[index].kind === 'create' ? rule.actionOnInsert : rule.actionOnUpdate) === 'Block';
          found[index].push({ rule, match, recordIds, blocks });
        }
      }
    }
  }
  for (const matches of found) matches.sort((a, b) => Number(b.blocks) - Number(a.blocks));
  return found;
}

/**
 * The duplicates of a record about to be created or updated: per active duplicate rule that applies and each
 * of its matching rules that found records. Blocking rules come first.
 */
export async function findDuplicates(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  kind: WriteKind,
  values: Record<string, FieldValue>,
  options: { excludeId?: string; changedFields?: string[] } = {},
): Promise<RuleMatch[]> {
  const rules = rulesOf(object);
  const found: RuleMatch[] = [];
  for (const rule of rules.duplicateRules) {
    if (!rule.active || !meetsFilters(object, rule, values)) continue;
    const blocks = (kind === 'create' ? rule.actionOnInsert : rule.actionOnUpdate) === 'Block';
    for (const match of matchRulesOf(rules, rule)) {
      // An update runs the matching rules whose fields it changes.
      if (options.changedFields && !match.fields.some((field) => options.changedFields!.includes(field.field)))
        continue;
      const recordIds = await runMatchRule(q, principal, object, match, values, options.excludeId);
      if (recordIds.length > 0) found.push({ rule, match, recordIds, blocks });
    }
  }
  return found.sort((a, b) => Number(b.blocks) - Number(a.blocks));
}

/** Whether a write with these duplicates fails: a blocking rule found some, or an alerting one did and saving anyway was not asked. */
export const refusesWrite = (matches: RuleMatch[], allowSaveOnDuplicate: boolean) =>
  matches.some((match) => match.blocks || !allowSaveOnDuplicate);

/** POST /predupe's answer for the duplicates found. */
export function duplicatesRepresentation(
  object: DescribedObject,
  matches: RuleMatch[],
  allowSaveOnDuplicate: boolean,
): Schemas['DuplicatesRepresentation'] {
  const infos: Record<string, Schemas['DuplicateResultInfoRepresentation']> = {};
  for (const found of matches) {
    for (const id of found.recordIds) {
      infos[id] ??= {
        allowSave: !found.blocks,
        matchResultInfo: { recordIds: found.recordIds, rule: found.match.name },
        rule: found.rule.name,
      };
    }
  }
  const recordIds = Object.keys(infos).sort();
  return {
    allowSave: !matches.some((match) => match.blocks),
    duplicateError: refusesWrite(matches, allowSaveOnDuplicate),
    duplicateRules: [...new Set(matches.map((match) => match.rule.name))],
    matches: recordIds.length === 0 ? [] : [{ duplicateResultInfos: infos, objectApiName: object.apiName, recordIds }],
  };
}

/** The write's DUPLICATES_DETECTED errors: one per duplicate rule, with its matches per matching rule. */
export function duplicateErrors(object: DescribedObject, matches: RuleMatch[]): RecordExceptionError[] {
  const byRule = new Map<DuplicateRuleDefinition, RuleMatch[]>();
  for (const match of matches) byRule.set(match.rule, [...(byRule.get(match.rule) ?? []), match]);
  return [...byRule].map(([rule, found]) => ({
    ...recordError('DUPLICATES_DETECTED', rule.alertText),
    duplicateRecordError: {
      matchResults: found.map((match) => ({
        apiName: object.apiName,
        isAllowSave: !match.blocks,
        matchRecordIds: match.recordIds,
        matchRule: match.match.name,
        objectLabel: object.definition.label,
        objectLabelPlural: object.definition.labelPlural,
        themeInfo: object.definition.themeInfo ?? { color: '', iconUrl: null },
      })),
    },
  }));
}

/**
 * Runs the object's duplicate rules for a create or an update inside its transaction (so that records
 * written earlier in the same batch count) and throws the record-error output when they refuse the write.
 */
export async function enforceDuplicateRules(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  kind: WriteKind,
  values: Record<string, FieldValue>,
  options: { allowSaveOnDuplicate?: boolean; excludeId?: string; changedFields?: string[] } = {},
): Promise<void> {
  if (!rulesOf(object).duplicateRules.some((rule) => rule.active)) return;
  const matches = await findDuplicates(q, principal, object, kind, values, options);
  if (!refusesWrite(matches, options.allowSaveOnDuplicate ?? false)) return;
  throw new RecordWriteError({
    enhancedErrorType: 'RecordError',
    message: WRITE_FAILED_MESSAGE,
    output: { errors: duplicateErrors(object, matches), fieldErrors: {} },
  });
}
