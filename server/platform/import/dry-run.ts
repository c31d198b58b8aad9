/**
 * An import's dry run: what a CSV file of records would do, writing nothing. Each row is matched to a record of
 * the object (by its Id, or else by the match key's fields), compared with it field by field, and checked as
 * the record writes check it (records/write.ts createValues, write-rules.ts checkWrite, the references, the
 * duplicate rules), so that a row the dry run finds valid is one the commit can write. The records are read in
 * bulk: one statement per chunk of rows for the matching, the references and each matching rule of the
 * duplicate rules, never one per row. commit.ts writes what the plan says.
 */
import type { Database, Queryable } from '../../db/connection.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../core/ids.ts';
import { fieldPermissions, objectPermissions, type Principal } from '../core/principal.ts';
import { findDuplicatesInBulk, type DuplicateCheck } from '../duplicates/match.ts';
import { matchRulesOf, rulesOf, type MatchRuleDefinition } from '../duplicates/rules.ts';
import { canEditRecord, canSeeRecord } from '../records/access.ts';
import { RECORD_COLUMNS, type RecordRow } from '../records/representation.ts';
import { derivedValues, normaliseValue, type FieldValue } from '../records/values.ts';
import {
  createValues,
  everyContext,
  insufficientAccess,
  noRightsOnRecord,
  objectToCreate,
  referencedIds,
  referenceErrors,
} from '../records/write.ts';
import {
  checkWrite,
  recordTypeForCreate,
  RecordWriteError,
  type RecordExceptionError,
} from '../records/write-rules.ts';
import { ImportError } from './errors.ts';
import { importObject, isReadOnly, mapColumns, mappableFields } from './mapping.ts';
import { cellValue, displayText, sameValue } from './cells.ts';
import { MATCH_CHUNK, matchKeyOf, recordsById, recordsByKey } from './matching.ts';
import { parseCsv, type ParsedRow } from './parse.ts';
import type {
  ColumnChoices,
  ImportOptions,
  ImportProblem,
  ImportReport,
  ImportRowReport,
  ImportRowStatus,
} from '../../../common/import-report.ts';

/** What the commit writes for a valid row that is new or changed: the fields as a create or an update takes them. */
export interface RowWrite {
  kind: 'create' | 'update';
  /** The row's fields (an update's: its Id and the fields that change). */
  fields: Record<string, FieldValue>;
}

interface ImportPlan {
  report: ImportReport;
  /** The object's API name as the org spells it. */
  objectApiName: string;
  /** The write of each row of the report, in its order (undefined for rows unchanged or invalid). */
  writes: (RowWrite | undefined)[];
}

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

/** One row of the file on its way through the dry run. */
interface Row {
  parsed: ParsedRow;
  report: ImportRowReport;
  /** The mapped fields the user may write, by API name, as a write takes them. */
  input: Record<string, FieldValue>;
  /** The record the row names by its Id or finds by its key. */
  record?: RecordRow;
  /** The key of a row without Id (its fields' texts), when none is blank. */
  key?: string[];
  /** The values as the write would store them (for the duplicate rules). */
  values?: Record<string, FieldValue>;
  changedFields?: string[];
  write?: RowWrite;
}

const invalid = (row: Row, field: string | null, message: string) => {
  row.report.status = 'invalid';
  row.report.errors.push({ field, message });
};

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
function duplicatesWithinFile(object: DescribedObject, rows: Row[]): void {
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

/** The plan of an import: the dry run's report, and what the commit would write for each row. */
export async function planImport(
  db: Database,
  principal: Principal,
  objectApiName: string,
  file: Uint8Array,
  options: ImportOptions,
): Promise<ImportPlan> {
  const object = await importObject(db, principal, objectApiName);
  const parsed = await parseCsv(file);
  const saved = options.mapping
    ? {}
    : ((
        await db.query<{ mapping: ColumnChoices }>(
          'SELECT mapping FROM import_mapping WHERE user_id = $1 AND object_api_name = $2',
          [principal.userId, object.apiName],
        )
      ).rows[0]?.mapping ?? {});
  const columns = mapColumns(principal, object, parsed.header, options.mapping, saved);
  const keyFields = matchKeyOf(principal, object, options.matchKey);
  const idColumn = columns.findIndex((column) => column.field === 'Id');
  const keyColumns = keyFields.map((field) => columns.findIndex((column) => column.field === field.apiName));
  if (idColumn < 0 && keyFields.length > 0 && keyColumns.some((index) => index < 0)) {
    const missing = keyFields.filter((_field, position) => keyColumns[position] < 0).map((field) => field.label);
    throw new ImportError(
      'INVALID_MATCH_KEY',
      `The file has no Id column, and no column for ${missing.join(', ')} of the match key: its rows could not be matched to records.`,
    );
  }
  const org = await describeOrg(db);
  const contextOf = await everyContext(db, org);
  const writable = columns.flatMap((column, index) =>
    column.field && !column.readOnly ? [{ index, field: object.fieldsByName.get(column.field)! }] : [],
  );

  const rows: Row[] = parsed.rows.map((one) => {
    const input: Record<string, FieldValue> = {};
    for (const { index, field } of writable) input[field.apiName] = cellValue(field, one.values[index]);
    return {
      parsed: one,
      input,
      report: {
        line: one.line,
        status: 'new',
        recordId: null,
        changes: [],
        errors: [],
        warnings: [],
        outcome: null,
      },
    };
  });

  // Matching: by Id, else by the key.
  const keyLabel = keyFields.map((field) => field.label).join(' + ');
  const wanted = new Set<string>();
  for (const row of rows) {
    const idText = idColumn < 0 ? '' : row.parsed.values[idColumn].trim();
    if (idText !== '') {
      const id = toId18(idText);
      if (!id || !id.startsWith(object.definition.keyPrefix))
        invalid(row, 'Id', `Id ${idText.slice(0, 40)} is not the Id of a ${object.definition.label} record`);
      else {
        row.report.recordId = id;
        wanted.add(id);
      }
      continue;
    }
    if (keyFields.length === 0) continue;
    const texts = keyFields.map((field, position) =>
      displayText(cellValue(field, row.parsed.values[keyColumns[position]] ?? '')),
    );
    const blank = keyFields.filter((_field, position) => texts[position].trim() === '');
    if (blank.length > 0)
      invalid(
        row,
        null,
        `The match key ${keyLabel} is blank (${blank.map((field) => field.label).join(', ')}): the row has no Id to match it by either`,
      );
    else row.key = texts;
  }
  const byId = await recordsById(db, object.apiName, [...wanted]);
  const keyed = rows.filter((row) => row.key);
  const byKey =
    keyed.length > 0
      ? await recordsByKey(
          db,
          object,
          keyFields,
          keyed.map((row) => row.key!),
        )
      : new Map();
  const seen = new Map<string, number>();
  for (const row of rows) {
    if (row.report.status === 'invalid') continue;
    let identity: string | undefined;
    if (row.report.recordId) {
      const record = byId.get(row.report.recordId);
      if (!record || !canSeeRecord(principal, object, record)) {
        invalid(row, 'Id', `No ${object.definition.label} record has the Id ${row.report.recordId}`);
        row.report.recordId = null;
        continue;
      }
      row.record = record;
      identity = record.id;
    } else if (row.key) {
      const found = (byKey.get(JSON.stringify(row.key)) ?? []).filter((record: RecordRow) =>
        canSeeRecord(principal, object, record),
      );
      if (found.length > 1) {
        invalid(
          row,
          null,
          `The match key ${keyLabel} finds ${found.length} records (${found
            .slice(0, 5)
            .map((record: RecordRow) => record.id)
            .join(', ')}): give the row an Id`,
        );
        continue;
      }
      if (found.length === 1) {
        row.record = found[0];
        row.report.recordId = found[0].id;
        identity = found[0].id;
      } else identity = `key:${JSON.stringify(row.key).toLowerCase()}`;
    }
    if (identity === undefined) continue;
    const earlier = seen.get(identity);
    if (earlier !== undefined) invalid(row, null, `A duplicate within the file (line ${earlier})`);
    else seen.set(identity, row.parsed.line);
  }

  // The changes of matched rows, and the checks of every row to write.
  const mayEdit = objectPermissions(principal, object.apiName).edit && object.definition.flags?.updateable;
  for (const row of rows) {
    if (row.report.status === 'invalid') continue;
    if (row.record) {
      const record = row.record;
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
        continue;
      }
      row.report.status = 'changed';
      try {
        // The update's checks (records/update.ts planUpdate), with its errors.
        if (!mayEdit) throw insufficientAccess(`edit ${object.definition.labelPlural}`);
        if (!canEditRecord(principal, object, record)) throw noRightsOnRecord();
        const { values } = checkWrite(principal, object, 'update', changed, context, record.fields);
        const merged = { ...record.fields, ...values };
        Object.assign(merged, derivedValues(object.fields, merged));
        row.values = merged;
        row.changedFields = Object.keys(values).filter((name) => values[name] !== record.fields[name]);
        row.write = { kind: 'update', fields: { Id: record.id, ...changed } };
      } catch (error) {
        row.report.status = 'invalid';
        row.report.errors.push(...problemsOf(error));
      }
    } else {
      // A blank cell is no value: the record type's defaults apply, as to a new record's fields not given.
      const fields = Object.fromEntries(Object.entries(row.input).filter(([, value]) => value !== null));
      try {
        objectToCreate(org, principal, object.apiName);
        const { recordTypeId, fields: rest } = recordTypeForCreate(object, fields);
        row.values = createValues(principal, object, rest, contextOf(object, recordTypeId));
        row.write = { kind: 'create', fields };
      } catch (error) {
        row.report.status = 'invalid';
        row.report.errors.push(...problemsOf(error));
      }
    }
  }

  const toWrite = rows.filter((row) => row.write && row.report.status !== 'invalid');
  await checkReferencesInBulk(db, org, principal, object, toWrite);
  duplicatesWithinFile(object, toWrite);
  const checked = toWrite.filter((row) => row.report.status !== 'invalid');
  const found = await findDuplicatesInBulk(
    db,
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

  const reports = rows.map((row) => row.report);
  const count = (status: ImportRowStatus) => reports.filter((report) => report.status === status).length;
  const required = (field: FieldDefinition) =>
    field.required === true && !isReadOnly(principal, object, field) && field.createable !== false;
  return {
    objectApiName: object.apiName,
    writes: rows.map((row) => (row.report.status === 'invalid' ? undefined : row.write)),
    report: {
      objectApiName: object.apiName,
      columns,
      fields: mappableFields(principal, object)
        .filter((field) => fieldPermissions(principal, object.apiName, field.apiName).read)
        .map((field) => ({ apiName: field.apiName, label: field.label, required: required(field) })),
      matchKey: keyFields.map((field) => field.apiName),
      allOrNone: options.allOrNone === true,
      committed: false,
      totals: {
        rows: reports.length,
        new: count('new'),
        changed: count('changed'),
        unchanged: count('unchanged'),
        invalid: count('invalid'),
        created: 0,
        updated: 0,
        failed: 0,
      },
      rows: reports,
    },
  };
}

/** The references of the rows to write, checked as a write checks them, their records read in one statement per chunk. */
async function checkReferencesInBulk(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  object: DescribedObject,
  rows: Row[],
): Promise<void> {
  const written = (row: Row) => (row.write!.kind === 'create' ? row.values! : pick(row.values!, row.changedFields!));
  const ids = new Set(rows.flatMap((row) => referencedIds(object, written(row))));
  if (ids.size === 0) return;
  const targets = new Map<string, RecordRow>();
  const list = [...ids];
  for (let start = 0; start < list.length; start += MATCH_CHUNK) {
    const { rows: found } = await q.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[])`,
      [list.slice(start, start + MATCH_CHUNK)],
    );
    for (const row of found) targets.set(row.id, row);
  }
  for (const row of rows) {
    const problems = fieldProblems(referenceErrors(org, principal, object, written(row), targets));
    if (problems.length === 0) continue;
    row.report.status = 'invalid';
    row.report.errors.push(...problems);
  }
}

const pick = (values: Record<string, FieldValue>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, values[name]]));

/** The dry run of an import: its report, nothing written. Throws ImportError for a file or options it refuses. */
export async function dryRunImport(
  db: Database,
  principal: Principal,
  objectApiName: string,
  file: Uint8Array,
  options: ImportOptions = {},
): Promise<ImportReport> {
  return (await planImport(db, principal, objectApiName, file, options)).report;
}
