/**
 * Batch writes (POST /records/batch): creates, updates and deletes of up to 200 records in all, in order,
 * one result per record. With allOrNone, one failure rolls every write back and the other records report
 * ALL_OR_NONE_OPERATION_ROLLED_BACK; without it, each record is written (or not) on its own, and the whole
 * request is still one transaction, so that a defect half-way commits nothing. executeBatchIn writes a batch the
 * same way inside a transaction of the caller's (an import's batches, server/platform/import).
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Database, Queryable } from '../../db/connection.ts';
import { describeOrg, type DescribedObject, type OrgDescribe } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { toId18 } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import type { ErrorItem } from './read.ts';
import type { RecordRepresentation, RecordRow } from './representation.ts';
import {
  deleteRow,
  everyContext,
  insertRecord,
  objectToCreate,
  readWritten,
  type RecordInput,
  type WriteOptions,
  type ValueContextOf,
} from './write.ts';
import { updateRow } from './update.ts';
import type { ValueContext } from './values.ts';
import { recordTypeForCreate, RecordWriteError, type WriteCheck } from './write-rules.ts';

const MAX_BATCH_RECORDS = 200;

type BatchOperationType = 'CREATE' | 'UPDATE' | 'DELETE';

interface BatchInput {
  allOrNone: boolean;
  operations: { type: string; records: RecordInput[] }[];
}

type BatchItemResult =
  | { statusCode: 200 | 201; result: RecordRepresentation }
  | { statusCode: 204; result: null }
  | { statusCode: number; result: ErrorItem[] };

interface Item {
  type: BatchOperationType;
  input: RecordInput;
  /** The record's id (update, delete) once checked. */
  id?: string;
  object?: DescribedObject;
  /** A create's record type and its fields without RecordTypeId. */
  create?: { recordTypeId: string; fields: RecordInput['fields']; context: ValueContext };
  error?: BatchItemResult;
}

/** The operation type, whatever the case of its letters; null for anything else. */
export function operationType(type: string): BatchOperationType | null {
  const upper = type.toUpperCase();
  return upper === 'CREATE' || upper === 'UPDATE' || upper === 'DELETE' ? upper : null;
}

const failure = (statusCode: number, errorCode: string, message: string): BatchItemResult => ({
  statusCode,
  result: [{ errorCode, message }],
});

/** The result of an item whose write threw. */
function resultOfError(error: unknown): BatchItemResult {
  if (error instanceof RecordWriteError) return { statusCode: 400, result: error.toErrorList() };
  if (error instanceof PlatformError) return failure(error.status, error.errorCode, error.message);
  throw error;
}

/** Flattens the operations into items, checking what can be checked without the database. */
export function batchItems(input: BatchInput): Item[] {
  const items: Item[] = [];
  for (const operation of input.operations) {
    const type = operationType(operation.type);
    if (!type)
      throw new PlatformError(
        400,
        'INVALID_INPUT',
        `Unknown operation type: ${operation.type}; expected CREATE, UPDATE or DELETE`,
      );
    for (const record of operation.records) {
      const item: Item = { type, input: record };
      if (type === 'CREATE') {
        if (!record.apiName) item.error = failure(400, 'INVALID_INPUT', 'A record to create needs apiName');
        else if ('Id' in record.fields)
          item.error = failure(400, 'INVALID_FIELD_FOR_INSERT_UPDATE', 'A record to create must not have an Id');
      } else {
        const raw = record.fields.Id;
        const id = typeof raw === 'string' ? toId18(raw) : null;
        if (record.apiName)
          item.error = failure(
            400,
            'INVALID_INPUT',
            `A record to ${type.toLowerCase()} is named by fields.Id, not apiName`,
          );
        else if (!id)
          item.error = failure(400, 'INVALID_ID_FIELD', `Record ID ${String(raw ?? '')} is not a valid record ID.`);
        else if (type === 'DELETE' && Object.keys(record.fields).length > 1)
          item.error = failure(400, 'INVALID_INPUT', 'A record to delete holds only its Id');
        else item.id = id;
      }
      items.push(item);
    }
  }
  if (items.length > MAX_BATCH_RECORDS)
    throw new PlatformError(
      400,
      'INVALID_INPUT',
      `A batch holds at most ${MAX_BATCH_RECORDS} records; this one holds ${items.length}`,
    );
  const seen = new Set<string>();
  for (const item of items) {
    if (!item.id) continue;
    if (seen.has(item.id))
      throw new PlatformError(400, 'INVALID_INPUT', `A record may appear in one operation only: ${item.id}`);
    seen.add(item.id);
  }
  return items;
}

type BatchOptions = WriteOptions & Pick<WriteCheck, 'beforeWrite'>;

/** The items of a batch and what became of each: 'written', or the result of its failure. */
interface BatchRun {
  items: Item[];
  outcomes: (BatchItemResult | 'written')[];
}

/** The org's metadata a batch is checked against: its describe and every value context. */
export interface BatchMetadata {
  org: OrgDescribe;
  contextOf: ValueContextOf;
}

/**
 * Reads a batch's metadata (kept per database). It is read before the batch's transaction: on PGlite, one
 * session, a query on `db` while a transaction is open waits for that transaction to end.
 */
export async function batchMetadata(db: Database): Promise<BatchMetadata> {
  const org = await describeOrg(db);
  return { org, contextOf: await everyContext(db, org) };
}

/**
 * Checks and writes a batch's items against `metadata`, reading the records through `q`; `inTransaction` runs
 * the writes in one transaction (executeBatch: a transaction of its own; executeBatchIn: a savepoint of the
 * caller's).
 */
async function runBatch(
  { org, contextOf }: BatchMetadata,
  q: Queryable,
  principal: Principal,
  input: BatchInput,
  options: BatchOptions,
  inTransaction: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
): Promise<BatchRun> {
  const items = batchItems(input);
  const now = new Date(options.clock?.now() ?? Date.now());
  const ids = items.flatMap((item) => (item.id ? [item.id] : []));
  const { rows } = ids.length
    ? await q.query<RecordRow>(
        'SELECT id, object_api_name, record_type_id, fields, created_by_id FROM record WHERE id = ANY($1::text[])',
        [ids],
      )
    : { rows: [] };
  for (const item of items) {
    if (item.error) continue;
    try {
      if (item.type === 'CREATE') {
        item.object = objectToCreate(org, principal, item.input.apiName);
        const { recordTypeId, fields } = recordTypeForCreate(item.object, item.input.fields);
        item.create = { recordTypeId, fields, context: contextOf(item.object, recordTypeId) };
      } else {
        const row = rows.find((candidate) => candidate.id === item.id);
        item.object = row ? org.objects.get(row.object_api_name) : undefined;
      }
    } catch (error) {
      item.error = resultOfError(error);
    }
  }
  const writeOne = async (tx: Queryable, item: Item) => {
    if (item.error) throw new ItemFailed(item.error);
    if (item.type === 'CREATE')
      item.id = await insertRecord(
        tx,
        org,
        principal,
        item.object!,
        item.create!.recordTypeId,
        item.create!.fields,
        item.create!.context,
        now,
        {
          beforeWrite: options.beforeWrite,
          allowSaveOnDuplicate: item.input.allowSaveOnDuplicate,
        },
      );
    else if (item.type === 'UPDATE')
      await updateRow(tx, org, principal, item.id!, item.input.fields, contextOf, now, undefined, {
        beforeWrite: options.beforeWrite,
        allowSaveOnDuplicate: item.input.allowSaveOnDuplicate,
      });
    else await deleteRow(tx, org, principal, item.id!, now);
  };

  const outcomes: (BatchItemResult | 'written')[] = [];
  if (input.allOrNone) {
    let failedAt = -1;
    let failed: BatchItemResult | undefined;
    try {
      await inTransaction(async (tx) => {
        for (const [index, item] of items.entries()) {
          try {
            await writeOne(tx, item);
          } catch (error) {
            failedAt = index;
            failed = error instanceof ItemFailed ? error.result : resultOfError(error);
            throw error;
          }
        }
      });
      outcomes.push(...items.map(() => 'written' as const));
    } catch (error) {
      if (failedAt < 0 || !failed) throw error;
      for (const index of items.keys()) {
        outcomes.push(
          index === failedAt
            ? failed
            : failure(
                400,
                'ALL_OR_NONE_OPERATION_ROLLED_BACK',
                'Record rolled back because not all records were valid and the request was using AllOrNone header',
              ),
        );
      }
    }
  } else {
    // One transaction, a savepoint per item: an item that fails is undone on its own and reported, and the
    // items reported written are exactly the ones committed; an unexpected error (resultOfError rethrows it)
    // rolls the whole request back before it answers 500.
    await inTransaction(async (tx) => {
      for (const item of items) {
        if (item.error) {
          outcomes.push(item.error);
          continue;
        }
        await tx.query('SAVEPOINT batch_item');
        try {
          await writeOne(tx, item);
          await tx.query('RELEASE SAVEPOINT batch_item');
          outcomes.push('written');
        } catch (error) {
          const result = error instanceof ItemFailed ? error.result : resultOfError(error);
          await tx.query('ROLLBACK TO SAVEPOINT batch_item');
          outcomes.push(result);
        }
      }
    });
  }
  return { items, outcomes };
}

export async function executeBatch(
  db: Database,
  principal: Principal,
  input: BatchInput,
  options: BatchOptions,
): Promise<Schemas['BatchOperationResultsRepresentation']> {
  const { items, outcomes } = await runBatch(await batchMetadata(db), db, principal, input, options, (fn) =>
    db.transaction(fn),
  );
  const results: BatchItemResult[] = [];
  for (const [index, item] of items.entries()) {
    const outcome = outcomes[index];
    if (outcome !== 'written') results.push(outcome);
    else if (item.type === 'DELETE') results.push({ statusCode: 204, result: null });
    else
      results.push({
        statusCode: item.type === 'CREATE' ? 201 : 200,
        result: await readWritten(db, principal, item.id!, item.object!, Object.keys(item.input.fields), options),
      });
  }
  return { hasErrors: results.some((result) => result.statusCode >= 400), results };
}

/** What became of one record of a batch written by executeBatchIn: its id once written, or its errors. */
export type BatchWriteOutcome = { id: string; errors: null } | { id: string | null; errors: ErrorItem[] };

/**
 * A batch written inside the caller's transaction `tx`, as executeBatch writes it (the same checks, order and
 * allOrNone), without reading the records back: each record's id or errors. Its writes are in a savepoint, so
 * that an allOrNone batch that fails undoes its own writes and leaves `tx` usable; the caller decides whether
 * `tx` commits. `metadata` is batchMetadata's, which the caller reads before its transaction begins.
 */
export async function executeBatchIn(
  metadata: BatchMetadata,
  tx: Queryable,
  principal: Principal,
  input: BatchInput,
  options: BatchOptions,
): Promise<BatchWriteOutcome[]> {
  const { items, outcomes } = await runBatch(metadata, tx, principal, input, options, async (fn) => {
    await tx.query('SAVEPOINT batch');
    try {
      const result = await fn(tx);
      await tx.query('RELEASE SAVEPOINT batch');
      return result;
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT batch');
      throw error;
    }
  });
  return items.map((item, index) => {
    const outcome = outcomes[index];
    return outcome === 'written'
      ? { id: item.id!, errors: null }
      : { id: item.id ?? null, errors: outcome.result as ErrorItem[] };
  });
}

/** An item that failed before any write: carries its result through the transaction's rollback. */
class ItemFailed extends Error {
  constructor(readonly result: BatchItemResult) {
    super('batch item failed');
  }
}
