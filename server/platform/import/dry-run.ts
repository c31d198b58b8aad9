/**
 * An import's dry run: what a CSV file of records would do, writing nothing. Each row is matched to a record of
 * the object (by its Id, or else by the match key's fields: matching.ts), compared with it field by field, and
 * checked as the record writes check it (checks.ts), so that a row the dry run finds valid is one the commit can
 * write. The records are read in bulk: one statement per chunk of rows for the matching, the references and each
 * matching rule of the duplicate rules, never one per row. commit.ts writes what the plan says.
 */
import type { Database } from '../../db/connection.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { describeOrg, type DescribedObject } from '../core/describe.ts';
import { fieldPermissions, type Principal } from '../core/principal.ts';
import type { FieldValue } from '../records/values.ts';
import { everyContext } from '../records/write.ts';
import { checkDuplicateRules, checkReferencesInBulk, duplicatesWithinFile, planWrites } from './checks.ts';
import { cellValue } from './cells.ts';
import { importObject, isReadOnly, mapColumns, mappableFields, readSavedMapping } from './mapping.ts';
import { matchKeyOf, matchRows } from './matching.ts';
import { parseCsv } from './parse.ts';
import type { PlanRow, RowWrite } from './plan-row.ts';
import type { ImportColumn, ImportOptions, ImportReport, ImportRowStatus } from '../../../common/import-report.ts';

interface ImportPlan {
  report: ImportReport;
  /** The object's API name as the org spells it. */
  objectApiName: string;
  /** The write of each row of the report, in its order (undefined for rows unchanged or invalid). */
  writes: (RowWrite | undefined)[];
}

/** The dry run's report of the rows planned: the columns, the fields, the totals and each row's report. */
function reportOf(
  principal: Principal,
  object: DescribedObject,
  columns: ImportColumn[],
  keyFields: FieldDefinition[],
  options: ImportOptions,
  rows: PlanRow[],
): ImportReport {
  const reports = rows.map((row) => row.report);
  const count = (status: ImportRowStatus) => reports.filter((report) => report.status === status).length;
  const required = (field: FieldDefinition) =>
    field.required === true && !isReadOnly(principal, object, field) && field.createable !== false;
  return {
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
  };
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
  const saved = options.mapping ? {} : await readSavedMapping(db, principal, object.apiName);
  const columns = mapColumns(principal, object, parsed.header, options.mapping, saved);
  const keyFields = matchKeyOf(principal, object, options.matchKey);
  const writable = columns.flatMap((column, index) =>
    column.field && !column.readOnly ? [{ index, field: object.fieldsByName.get(column.field)! }] : [],
  );
  const rows: PlanRow[] = parsed.rows.map((one) => {
    const input: Record<string, FieldValue> = {};
    for (const { index, field } of writable) input[field.apiName] = cellValue(field, one.values[index]);
    return {
      parsed: one,
      input,
      report: { line: one.line, status: 'new', recordId: null, changes: [], errors: [], warnings: [], outcome: null },
    };
  });

  await matchRows(db, principal, object, columns, keyFields, rows);
  const org = await describeOrg(db);
  await planWrites(org, principal, object, writable, await everyContext(db, org), rows);
  const toWrite = rows.filter((row) => row.write && row.report.status !== 'invalid');
  await checkReferencesInBulk(db, org, principal, object, toWrite);
  duplicatesWithinFile(object, toWrite);
  await checkDuplicateRules(db, principal, object, toWrite);

  return {
    objectApiName: object.apiName,
    writes: rows.map((row) => (row.report.status === 'invalid' ? undefined : row.write)),
    report: reportOf(principal, object, columns, keyFields, options, rows),
  };
}

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
