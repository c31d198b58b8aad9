/**
 * Reading records: one, or a batch, with the fields asked for (related records nested), the fields of
 * layouts, and pages of child records (child-records.ts). A record the caller may not see answers exactly like one that does
 * not exist.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject } from '../core/describe.ts';
import { notFound, PlatformError } from '../core/errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../core/ids.ts';
import { layoutFieldPaths } from '../layouts/layouts.ts';
import { noteRecordUsed } from './mru.ts';
import type { Principal } from '../core/principal.ts';
import { canSeeRecord } from './access.ts';
import { parseFieldLists, parseFieldPath, selectFields, type FieldPath, type ObjectSelection } from './field-paths.ts';
import { picklistLabels } from './picklist-labels.ts';
import { buildRecord, type RecordRepresentation, type RecordRow } from './representation.ts';
import { contextFor, fetchRows, loadRelated } from './rows.ts';
import { childPages } from './child-records.ts';

export type LayoutTypeName = 'Full' | 'Compact';
export type ModeName = 'View' | 'Edit' | 'Create';

interface ReadOptions {
  /** Field paths the answer must hold (`Object.Field`, `Object.Relationship.Field`). */
  fields?: string[];
  /** Field paths held when they exist and the caller may see them. */
  optionalFields?: string[];
  /** Layouts whose fields are added (as optional fields), in each of the modes (default View). */
  layoutTypes?: LayoutTypeName[];
  modes?: ModeName[];
  /** `Object.Relationship` or `Object.Relationship.Field`: one page of child records each. */
  childRelationships?: string[];
  pageSize?: number;
  /** getRecord: the record moves to the top of the caller's most-recently-used list of its object. */
  updateMru?: boolean;
  /** Filled with the id of every record the answer is read from, asked for or related, found or not (child pages aside). */
  reads?: Set<string>;
}

export interface ErrorItem {
  errorCode: string;
  message: string;
}

type RecordResult = { statusCode: 200; result: RecordRepresentation } | { statusCode: number; result: ErrorItem[] };

/** The paths of the layouts asked for, for records of one object and record type. */
async function layoutPaths(
  db: Queryable,
  object: DescribedObject,
  recordTypeId: string | null,
  options: ReadOptions,
): Promise<FieldPath[]> {
  const paths: FieldPath[] = [];
  for (const layoutType of options.layoutTypes ?? []) {
    for (const mode of options.modes?.length ? options.modes : (['View'] as const)) {
      for (const text of await layoutFieldPaths(
        db,
        object.apiName,
        recordTypeId ?? MASTER_RECORD_TYPE_ID,
        layoutType,
        mode,
      )) {
        const path = parseFieldPath(text);
        if (path) paths.push(path);
      }
    }
  }
  return paths;
}

const errorOf = (error: unknown): { statusCode: number; result: ErrorItem[] } => {
  if (error instanceof PlatformError)
    return { statusCode: error.status, result: [{ errorCode: error.errorCode, message: error.message }] };
  throw error;
};

/**
 * Reads records by id (15 or 18 characters), one result per id in the order given: 200 with the record,
 * 404 for a record that does not exist or that the caller may not see, 400 for a bad id or a required field
 * the record's object lacks. A bad field list fails the whole call (throws).
 * `db` must be the app's database handle (the org's metadata is read through it), not a transaction.
 */
export async function readRecords(
  db: Queryable,
  principal: Principal,
  ids: string[],
  options: ReadOptions = {},
  /** A record as just saved (returned by its update in the transaction that committed it): not read again. */
  saved?: RecordRow,
): Promise<RecordResult[]> {
  const org = await describeOrg(db);
  const paths = parseFieldLists(options.fields ?? [], options.optionalFields ?? []);
  const id18s = ids.map((id) => toId18(id));
  for (const id of id18s) if (id) options.reads?.add(id);
  const rows = await fetchRows(
    db,
    id18s.filter((id): id is string => id !== null && id !== saved?.id),
  );
  if (saved) rows.set(saved.id, saved);
  const selections = new Map<string, ObjectSelection | PlatformError>();
  const results: (RecordResult | { row: RecordRow; object: DescribedObject; selection: ObjectSelection })[] = [];
  for (const [index, id] of id18s.entries()) {
    if (!id) {
      results.push({
        statusCode: 400,
        result: [{ errorCode: 'INVALID_ID_FIELD', message: `Record ID ${ids[index]} is not a valid record ID.` }],
      });
      continue;
    }
    const row = rows.get(id);
    const object = row ? org.objects.get(row.object_api_name) : undefined;
    if (!row || !object || !canSeeRecord(principal, object, row)) {
      results.push(errorOf(notFound()));
      continue;
    }
    const key = `${object.apiName}/${row.record_type_id ?? ''}`;
    let selection = selections.get(key);
    if (!selection) {
      try {
        const layout = options.layoutTypes?.length ? await layoutPaths(db, object, row.record_type_id, options) : [];
        selection = selectFields(org, principal, object, {
          required: paths.required,
          optional: [...layout, ...paths.optional],
        });
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        selection = error;
      }
      selections.set(key, selection);
    }
    results.push(selection instanceof PlatformError ? errorOf(selection) : { row, object, selection });
  }
  const related = new Map<string, RecordRow>();
  const found = results.filter(
    (result): result is { row: RecordRow; object: DescribedObject; selection: ObjectSelection } => 'row' in result,
  );
  await loadRelated(db, found, related, options.reads);
  const labels = await picklistLabels(db);
  const context = contextFor(principal, related, labels);
  const built: RecordResult[] = [];
  for (const result of results) {
    if (!('row' in result)) {
      built.push(result);
      continue;
    }
    const children = options.childRelationships?.length
      ? await childPages(db, org, principal, result.row, result.object, options, labels)
      : {};
    built.push({ statusCode: 200, result: buildRecord(result.row, result.selection, context, children) });
  }
  return built;
}

/** Reads one record; throws the error a single read answers with (400 bad id or field, 404 not found). */
export async function readRecord(
  db: Queryable,
  principal: Principal,
  id: string,
  options: ReadOptions = {},
  saved?: RecordRow,
): Promise<RecordRepresentation> {
  if (!toId18(id)) throw new PlatformError(400, 'INVALID_ID_FIELD', `Record ID ${id} is not a valid record ID.`);
  const [result] = await readRecords(db, principal, [id], options, saved);
  if (result.statusCode === 200) return result.result as RecordRepresentation;
  const [error] = result.result as ErrorItem[];
  throw new PlatformError(result.statusCode as PlatformError['status'], error.errorCode, error.message);
}

const NO_FIELDS_MESSAGE = 'At least one of fields, optionalFields or layoutTypes is required';

/** GET /records/{recordId}: at least one of fields, optionalFields or layoutTypes must be given. */
export async function getRecord(
  db: Queryable,
  principal: Principal,
  id: string,
  options: ReadOptions,
): Promise<RecordRepresentation> {
  if (!options.fields?.length && !options.optionalFields?.length && !options.layoutTypes?.length) {
    throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', NO_FIELDS_MESSAGE);
  }
  const record = await readRecord(db, principal, id, options);
  if (options.updateMru) await noteRecordUsed(db, principal, record.id, record.apiName);
  return record;
}

/** GET /records/batch/{recordIds}: at most 200 ids; at least one of fields or optionalFields. */
export async function getRecords(
  db: Queryable,
  principal: Principal,
  ids: string[],
  options: Pick<ReadOptions, 'fields' | 'optionalFields'>,
): Promise<Schemas['BatchRepresentation']> {
  if (!options.fields?.length && !options.optionalFields?.length) {
    throw new PlatformError(
      400,
      'ILLEGAL_QUERY_PARAMETER_VALUE',
      'At least one of fields or optionalFields is required',
    );
  }
  if (ids.length === 0 || ids.length > 200)
    throw new PlatformError(400, 'ILLEGAL_QUERY_PARAMETER_VALUE', 'Between 1 and 200 record ids are required');
  const results = await readRecords(db, principal, ids, options);
  return { hasErrors: results.some((result) => result.statusCode >= 400), results };
}
