/**
 * An import's commit: the dry run again (dry-run.ts, against the data as it is now), then the valid new and
 * changed rows written in batches of 200 with the checks of POST /records/batch (the duplicate rules enforced;
 * an alerting rule's duplicates, which the dry run reported as warnings, saved): in bulk, a few statements per
 * batch (records/bulk-write.ts), when no row of the batch can fail, else through the batch operation
 * (records/batch.ts executeBatchIn), one record at a time (writeBatch says why). Each batch is a transaction of
 * its own: an import cut short keeps the batches written, and run again finds those rows unchanged and writes the
 * rest. With allOrNone, nothing is written when a row is invalid, and every batch is in one transaction that a
 * failure rolls back whole. The report names the history the writes made (migration 027): each batch's transaction id,
 * which its history rows carry in TransactionId.
 */
import type { Database, Queryable } from '../../db/connection.ts';
import type { Principal } from '../core/principal.ts';
import { mayRefuseDuplicates } from '../duplicates/in-batch.ts';
import { enforceDuplicateRules } from '../duplicates/match.ts';
import { batchMetadata, executeBatchIn, type BatchMetadata, type BatchWriteOutcome } from '../records/batch.ts';
import { writeInBulk } from '../records/bulk-write.ts';
import type { ErrorItem } from '../records/read.ts';
import type { RecordInput, WriteOptions } from '../records/write.ts';
import { oneCommitAtATime } from './commit-lock.ts';
import { planImport } from './dry-run.ts';
import type { RowWrite } from './plan-row.ts';
import type { ImportOptions, ImportReport, ImportRowReport } from '../../../common/import-report.ts';

/** Records per batch: the most one batch operation takes. */
const BATCH_RECORDS = 200;

interface Pending {
  row: ImportRowReport;
  write: RowWrite;
}

/** The batch operation's input for some rows, in their order. */
function batchInput(objectApiName: string, pending: Pending[], allOrNone: boolean) {
  return {
    allOrNone,
    operations: pending.map(({ write }) => ({
      type: write.kind === 'create' ? 'CREATE' : 'UPDATE',
      records: [
        {
          ...(write.kind === 'create' ? { apiName: objectApiName } : {}),
          fields: write.fields,
          allowSaveOnDuplicate: true,
        } satisfies RecordInput,
      ],
    })),
  };
}

/**
 * Writes a batch: in bulk (records/bulk-write.ts: a few statements for the whole batch) when every row passes its
 * checks, as the rows the dry run found valid do unless the records changed since; else through the batch
 * operation, one record at a time, which reports each row's failure. The bulk path is the import's alone: the
 * batch operation answers each record as saved and takes any check of the caller's, and a batch of the API is
 * a few records, where statements per record cost little; a commit writes up to 50,000.
 */
async function writeBatch(
  metadata: BatchMetadata,
  tx: Queryable,
  principal: Principal,
  objectApiName: string,
  batch: Pending[],
  allOrNone: boolean,
  check: WriteOptions & { beforeWrite: typeof enforceDuplicateRules },
): Promise<BatchWriteOutcome[]> {
  const object = metadata.org.objects.get(objectApiName)!;
  const ids = await writeInBulk(
    tx,
    principal,
    object,
    batch.map((one) => one.write),
    {
      ...metadata,
      now: new Date(check.clock?.now() ?? Date.now()),
      allowSaveOnDuplicate: true,
      mayRefuseDuplicates,
    },
  );
  if (ids) return ids.map((id) => ({ id, errors: null }));
  return executeBatchIn(metadata, tx, principal, batchInput(objectApiName, batch, allOrNone), check);
}

/** The field a batch item's error is about, when it names one (a record write's field errors do). */
const fieldOf = (error: ErrorItem) => (error as ErrorItem & { fields?: string[] }).fields?.[0] ?? null;

/** Sets each row's outcome from the batch's. */
function noteOutcomes(pending: Pending[], outcomes: BatchWriteOutcome[], report: ImportReport): void {
  for (const [index, { row, write }] of pending.entries()) {
    const outcome = outcomes[index];
    if (outcome.errors === null) {
      row.outcome = write.kind === 'create' ? 'created' : 'updated';
      if (write.kind === 'create') {
        row.recordId = outcome.id;
        report.totals.created++;
      } else report.totals.updated++;
    } else {
      row.outcome = 'failed';
      row.errors.push(...outcome.errors.map((error) => ({ field: fieldOf(error), message: error.message })));
      report.totals.failed++;
    }
  }
}

/** The transaction's id as its history rows carry it, when it has written (null when it has not). */
async function transactionId(tx: Queryable): Promise<string | null> {
  const { rows } = await tx.query<{ id: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS id');
  return rows[0].id;
}

/**
 * The count of the history rows that carry some transaction ids ($1): the records whose ids have the history key
 * prefix (migration 027), through their index by transaction id (migration 030).
 */
export const HISTORY_ROWS_SQL = `SELECT count(*) AS count FROM record WHERE id LIKE '017%' AND fields ->> 'TransactionId' = ANY($1::text[])`;

/** How many history rows carry these transaction ids. */
async function historyRows(db: Queryable, transactionIds: string[]): Promise<number> {
  if (transactionIds.length === 0) return 0;
  const { rows } = await db.query<{ count: string | number }>(HISTORY_ROWS_SQL, [transactionIds]);
  return Number(rows[0].count);
}

/** A failure that ends an all-or-nothing commit: its transaction is rolled back. */
class RolledBack extends Error {
  constructor(readonly failedLine: number) {
    super('an import row failed');
  }
}

/**
 * Commits an import: its report, every row with its outcome. `onProgress(done, total)` is called after each
 * batch with the rows written (or failed) so far and the rows to write. Throws ImportError as the dry run does.
 */
export function commitImport(
  db: Database,
  principal: Principal,
  objectApiName: string,
  file: Uint8Array,
  options: ImportOptions & { onProgress?: (done: number, total: number) => void },
  writeOptions: WriteOptions = {},
): Promise<ImportReport> {
  // Planned and written while no other commit of the object is (commit-lock.ts says why).
  return oneCommitAtATime(db, objectApiName.toLowerCase(), () =>
    planAndWrite(db, principal, objectApiName, file, options, writeOptions),
  );
}

async function planAndWrite(
  db: Database,
  principal: Principal,
  objectApiName: string,
  file: Uint8Array,
  options: ImportOptions & { onProgress?: (done: number, total: number) => void },
  writeOptions: WriteOptions,
): Promise<ImportReport> {
  const plan = await planImport(db, principal, objectApiName, file, options);
  const { report } = plan;
  report.committed = true;
  report.history = { transactionIds: [], rows: 0 };
  const pending: Pending[] = [];
  for (const [index, row] of report.rows.entries()) {
    const write = plan.writes[index];
    if (write) pending.push({ row, write });
    row.outcome = row.status === 'unchanged' ? 'unchanged' : 'not written';
  }
  const batches: Pending[][] = [];
  for (let start = 0; start < pending.length; start += BATCH_RECORDS)
    batches.push(pending.slice(start, start + BATCH_RECORDS));
  const check = { ...writeOptions, beforeWrite: enforceDuplicateRules };
  // Read before any of the commit's transactions begins (batchMetadata says why).
  const metadata = await batchMetadata(db);
  const write = (tx: Queryable, batch: Pending[], allOrNone: boolean) =>
    writeBatch(metadata, tx, principal, plan.objectApiName, batch, allOrNone, check);
  const total = pending.length;

  if (options.allOrNone === true) {
    if (report.totals.invalid > 0) {
      report.message = `Nothing was written: ${report.totals.invalid} ${report.totals.invalid === 1 ? 'row is' : 'rows are'} invalid, and the import is all or nothing.`;
      return report;
    }
    let transactionIdOfAll: string | null = null;
    const written: [Pending[], BatchWriteOutcome[]][] = [];
    try {
      await db.transaction(async (tx) => {
        let done = 0;
        for (const batch of batches) {
          const outcomes = await write(tx, batch, true);
          const failedAt = outcomes.findIndex(
            (outcome) =>
              outcome.errors !== null &&
              !outcome.errors.every((error) => error.errorCode === 'ALL_OR_NONE_OPERATION_ROLLED_BACK'),
          );
          if (failedAt >= 0) {
            const row = batch[failedAt].row;
            row.outcome = 'failed';
            row.errors.push(
              ...outcomes[failedAt].errors!.map((error) => ({
                field: fieldOf(error),
                message: error.message,
              })),
            );
            throw new RolledBack(row.line);
          }
          written.push([batch, outcomes]);
          done += batch.length;
          options.onProgress?.(done, total);
        }
        transactionIdOfAll = await transactionId(tx);
      });
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
      report.totals.failed = 1;
      report.message = `Nothing was written: line ${error.failedLine} failed, and the import is all or nothing.`;
      return report;
    }
    for (const [batch, outcomes] of written) noteOutcomes(batch, outcomes, report);
    if (transactionIdOfAll) report.history.transactionIds.push(transactionIdOfAll);
  } else {
    let done = 0;
    for (const batch of batches) {
      const txid = await db.transaction(async (tx) => {
        const outcomes = await write(tx, batch, false);
        noteOutcomes(batch, outcomes, report);
        return transactionId(tx);
      });
      if (txid) report.history.transactionIds.push(txid);
      done += batch.length;
      options.onProgress?.(done, total);
    }
  }
  report.history.rows = await historyRows(db, report.history.transactionIds);
  return report;
}
