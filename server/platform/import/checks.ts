/**
 * The checks of an import's rows, as the record writes make them (records/write.ts createValues, write-rules.ts
 * checkWrite, the references, the duplicate rules), so that a row the dry run finds valid is one the commit can
 * write: each matched row's changes field by field, the references of the rows to write in bulk, and the
 * duplicate rules within the file and against the stored records (one statement per matching rule and chunk).
 */
import { setImmediate } from 'node:timers/promises';
import type { ImportProblem } from '../../../common/import-report.ts';
import { inChunks } from '../../db/chunks.ts';
import type { Queryable } from '../../db/connection.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { MASTER_RECORD_TYPE_ID } from '../core/ids.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { findDuplicatesInBulk, type DuplicateCheck } from '../duplicates/match.ts';
import { matchRulesOf, rulesOf, type MatchRuleDefinition } from '../duplicates/rules.ts';
import { canEditRecord } from '../records/access.ts';
import { RECORD_COLUMNS, type RecordRow } from '../records/representation.ts';
import { derivedValues, normaliseValue, type FieldValue } from '../records/values.ts';
import {
  createValues,
  insufficientAccess,
  noRightsOnRecord,
  objectToCreate,
  referencedIds,
  referenceErrors,
  type ValueContextOf,
} from '../records/write.ts';
import {
  checkWrite,
  recordTypeForCreate,
  RecordWriteError,
  type RecordExceptionError,
} from '../records/write-rules.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { displayText, sameValue } from './cells.ts';
import { MATCH_CHUNK } from './matching.ts';
import { invalid, type PlanRow } from './plan-row.ts';

/** A write's error as the report's problems; an error that is not a write's is thrown on. */
function problemsOf(error: unknown): ImportProblem[] {
  if (error instanceof RecordWriteError) {
    const problems: ImportProblem[] = error.body.output.errors.map((one) => ({
      field: one.field,
      message: one.message,
    }));
    for (const [field, errors] of Object.entries(error.body.output.fieldErrors))
      for (const one of errors) problems.push({ field, message: one.message });
    return problems;
  }
  if (error instanceof PlatformError) return [{ field: null, message: error.message }];
  throw error;
}

const fieldProblems = (errors: Record<string, RecordExceptionError[]>): ImportProblem[] =>
  Object.entries(errors).flatMap(([field, list]) => list.map((one) => ({ field, message: one.message })));

/** Rows checked between two turns of the event loop: the checks of 50,000 rows would hold it for a second. */
export const ROWS_PER_TURN = 1000;

/**
 * What each valid row would write, checked as the write checks it: a matched row's changes (each field's old and
 * new value; unchanged when none differs) and the update's checks, or a new row's create. A row the checks
 * refuse is invalid, with the write's errors. The event loop turns every ROWS_PER_TURN rows.
 */
export async function planWrites(
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  writable: { field: FieldDefinition }[],
  contextOf: ValueContextOf,
  rows: PlanRow[],
): Promise<void> {
  const mayEdit = objectPermissions(principal, object.apiName).edit && object.definition.flags?.updateable;
  for (const [index, row] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_TURN === 0) await setImmediate();
    if (row.report.status === 'invalid') continue;
    try {
      if (row.record) planUpdate(principal, object, writable, contextOf, row, mayEdit === true);
      else {
        // A blank cell is no value: the record type's defaults apply, as to a new record's fields not given.
        const fields = Object.fromEntries(Object.entries(row.input).filter(([, value]) => value !== null));
        objectToCreate(org, principal, object.apiName);
        const { recordTypeId, fields: rest } = recordTypeForCreate(object, fields);
        row.values = createValues(principal, object, rest, contextOf(object, recordTypeId));
        row.write = { kind: 'create', fields };
      }
    } catch (error) {
      row.report.status = 'invalid';
      row.report.errors.push(...problemsOf(error));
    }
  }
}

/** A matched row's changes, and the update's checks (records/update.ts planUpdate) when there are any. */
function planUpdate(
  principal: Principal,
  object: DescribedObject,
  writable: { field: FieldDefinition }[],
  contextOf: ValueContextOf,
  row: PlanRow,
  mayEdit: boolean,
): void {
  const record = row.record!;
  const context = contextOf(object, record.record_type_id ?? MASTER_RECORD_TYPE_ID);
  const changed: Record<string, FieldValue> = {};
  for (const { field } of writable) {
    const raw = row.input[field.apiName];
    const checked = normaliseValue(field, raw, context);
    const next = 'error' in checked ? raw : checked.value;
    if ('value' in checked && sameValue(field, record.fields[field.apiName], next)) continue;
    changed[field.apiName] = raw;
    row.report.changes.push({
      field: field.apiName,
      label: field.label,
      old: displayText(record.fields[field.apiName]),
      new: displayText(next),
    });
  }
  if (row.report.changes.length === 0) {
    row.report.status = 'unchanged';
    return;
  }
  row.report.status = 'changed';
  if (!mayEdit) throw insufficientAccess(`edit ${object.definition.labelPlural}`);
  if (!canEditRecord(principal, object, record)) throw noRightsOnRecord();
  const { values } = checkWrite(principal, object, 'update', changed, context, record.fields);
  const merged = { ...record.fields, ...values };
  Object.assign(merged, derivedValues(object.fields, merged));
  row.values = merged;
  row.changedFields = Object.keys(values).filter((name) => values[name] !== record.fields[name]);
  row.write = { kind: 'update', fields: { Id: record.id, ...changed } };
}

const pick = (values: Record<string, FieldValue>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, values[name]]));

/** The references of the rows to write, checked as a write checks them, their records read in one statement per chunk. */
export async function checkReferencesInBulk(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  rows: PlanRow[],
): Promise<void> {
  const written = (row: PlanRow) =>
    row.write!.kind === 'create' ? row.values! : pick(row.values!, row.changedFields!);
  const ids = new Set(rows.flatMap((row) => referencedIds(object, written(row))));
  if (ids.size === 0) return;
  const targets = new Map<string, RecordRow>();
  const list = [...ids];
  const chunks = await inChunks(list, MATCH_CHUNK, async (chunk) => {
    const { rows: found } = await q.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[])`,
      [chunk],
    );
    return found;
  });
  for (const row of chunks.flat()) targets.set(row.id, row);
  for (const row of rows) {
    const problems = fieldProblems(referenceErrors(org, principal, object, written(row), targets));
    if (problems.length === 0) continue;
    row.report.status = 'invalid';
    row.report.errors.push(...problems);
  }
}

/** The key of a matching rule's fields in a record's values, as a rule compares them (null: a field is blank). */
function ruleKey(
  object: DescribedObject,
  match: MatchRuleDefinition,
  values: Record<string, FieldValue>,
): string | null {
  const parts: string[] = [];
  for (const { field: name } of match.fields) {
    const text = displayText(values[name]).trim();
    const part = object.fieldsByName.get(name)?.dataType === 'Phone' ? text.replace(/[^0-9]/g, '') : text.toLowerCase();
    if (part === '') return null;
    parts.push(part);
  }
  return JSON.stringify(parts);
}

/**
 * Rows of the file that the object's duplicate rules would find duplicates of each other, once the earlier is
 * written: a later row that a blocking rule refuses is invalid, one an alerting rule finds gets a warning. Values
 * are compared as the exact rules compare them (case-insensitively, phones by their digits); a fuzzy field is
 * compared exactly here, its stored records by the rule's own similarity.
 */
export function duplicatesWithinFile(object: DescribedObject, rows: PlanRow[]): void {
  const rules = rulesOf(object);
  for (const rule of rules.duplicateRules) {
    if (!rule.active) continue;
    for (const match of matchRulesOf(rules, rule)) {
      const first = new Map<string, number>();
      for (const row of rows) {
        if (!row.write || row.report.status === 'invalid' || !row.values) continue;
        const key = ruleKey(object, match, row.values);
        if (key === null) continue;
        const earlier = first.get(key);
        const runs =
          row.write.kind === 'create' || match.fields.some((field) => row.changedFields?.includes(field.field));
        if (earlier !== undefined && runs) {
          const blocks = (row.write.kind === 'create' ? rule.actionOnInsert : rule.actionOnUpdate) === 'Block';
          const message = `${rule.alertText} (a duplicate within the file: line ${earlier})`;
          if (blocks) invalid(row, null, message);
          else row.report.warnings.push({ field: null, message });
        } else if (earlier === undefined) first.set(key, row.parsed.line);
      }
    }
  }
}

/**
 * The duplicate rules against the stored records, for the rows still valid to write: a blocking rule's match
 * makes the row invalid, an alerting rule's gives it a warning (once per message).
 */
export async function checkDuplicateRules(
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  rows: PlanRow[],
): Promise<void> {
  const checked = rows.filter((row) => row.report.status !== 'invalid');
  const found = await findDuplicatesInBulk(
    q,
    principal,
    object,
    checked.map((row): DuplicateCheck =>
      row.write!.kind === 'create'
        ? { kind: 'create', values: row.values! }
        : { kind: 'update', values: row.values!, excludeId: row.record!.id, changedFields: row.changedFields },
    ),
  );
  for (const [index, matches] of found.entries()) {
    const row = checked[index];
    for (const match of matches) {
      const message = `${match.rule.alertText} (${match.recordIds.length === 1 ? 'record' : 'records'} ${match.recordIds.slice(0, 5).join(', ')})`;
      if (match.blocks) invalid(row, null, message);
      else if (!row.report.warnings.some((warning) => warning.message === message))
        row.report.warnings.push({ field: null, message });
    }
  }
}
