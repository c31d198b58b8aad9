/**
 * Creates and updates of many records of one object in a few statements: one lock of the records to update, one
 * read of the records their references name, the duplicate rules' check of the whole batch, then one INSERT, one
 * UPDATE and one note of the records used (the MRU list), whatever the number of records. An import's batches
 * (server/platform/import/commit.ts) are written this way, when every write of the batch passes its checks; a batch
 * where any might fail is left to the batch operation (batch.ts executeBatchIn), which writes one record at a
 * time and reports each failure. The records written are those the batch operation would write: the same checks
 * (write.ts createValues, update.ts checkUpdate, the references, the duplicate rules), the same values, dates,
 * owner, auto-numbers, history rows (migration 027's triggers, which are per statement) and MRU entries.
 */
import type { Queryable } from '../../db/connection.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { makeId, toId18 } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { canSeeRecord } from './access.ts';
import { RECORD_COLUMNS, type RecordRow } from './representation.ts';
import { checkUpdate } from './update.ts';
import { autoNumberText, derivedValues, type FieldValue } from './values.ts';
import { createValues, objectToCreate, referencedIds, referenceErrors, type ValueContextOf } from './write.ts';
import { recordTypeForCreate, RecordWriteError, type WriteKind } from './write-rules.ts';

/** One write of a bulk batch: a create's fields, or an update's (with its Id). */
export interface BulkWrite {
  kind: 'create' | 'update';
  fields: Record<string, FieldValue>;
}

/** A write of the batch as the duplicate rules see it: its values as they will be stored. */
export interface DuplicateCandidate {
  kind: WriteKind;
  values: Record<string, FieldValue>;
  /** An update's record. */
  excludeId?: string;
  /** An update's fields whose value changes. */
  changedFields?: string[];
  allowSaveOnDuplicate: boolean;
}

/**
 * Whether the duplicate rules might refuse any write of a batch: each checked against the records as they are
 * and against the batch's other writes as they will be, in any order. False only when none can be refused.
 */
export type MayRefuseDuplicates = (
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  writes: DuplicateCandidate[],
) => Promise<boolean>;

interface BulkOptions {
  org: OrgDescribe;
  contextOf: ValueContextOf;
  now: Date;
  allowSaveOnDuplicate: boolean;
  mayRefuseDuplicates: MayRefuseDuplicates;
}

/** A write checked and ready: the record's id (an update's) and its values as stored. */
interface Checked {
  write: BulkWrite;
  id?: string;
  recordTypeId?: string;
  values: Record<string, FieldValue>;
  referenced: Record<string, FieldValue>;
  candidate: DuplicateCandidate;
}

/** Whether an error is a check's refusal (which the batch operation reports), not a defect. */
const isRefusal = (error: unknown) => error instanceof RecordWriteError || error instanceof PlatformError;

/**
 * Checks and writes the batch inside the caller's transaction `tx`: the ids of the records written, in the
 * writes' order. Null when any write might fail a check: nothing is written then (only the records to update are
 * locked), and the caller writes the batch through the batch operation instead.
 */
export async function writeInBulk(
  tx: Queryable,
  principal: Principal,
  object: DescribedObject,
  writes: BulkWrite[],
  options: BulkOptions,
): Promise<string[] | null> {
  const { org, contextOf } = options;
  const updateIds: string[] = [];
  for (const write of writes) {
    if (write.kind !== 'update') continue;
    const id = typeof write.fields.Id === 'string' ? toId18(write.fields.Id) : null;
    if (!id) return null;
    updateIds.push(id);
  }
  if (new Set(updateIds).size !== updateIds.length) return null;
  const locked = new Map<string, RecordRow>();
  if (updateIds.length > 0) {
    // Locked in the order of their ids, as one statement, so that two batches that share records never deadlock.
    const { rows } = await tx.query<RecordRow>(
      `SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
      [updateIds],
    );
    for (const row of rows) locked.set(row.id, row);
  }

  const checked: Checked[] = [];
  try {
    for (const write of writes) {
      if (write.kind === 'create') {
        if ('Id' in write.fields) return null;
        if (objectToCreate(org, principal, object.apiName).apiName !== object.apiName) return null;
        const { recordTypeId, fields } = recordTypeForCreate(object, write.fields);
        const values = createValues(principal, object, fields, contextOf(object, recordTypeId));
        checked.push({
          write,
          recordTypeId,
          values,
          referenced: values,
          candidate: { kind: 'create', values, allowSaveOnDuplicate: options.allowSaveOnDuplicate },
        });
      } else {
        const id = toId18(write.fields.Id as string)!;
        const row = locked.get(id);
        if (!row || row.object_api_name !== object.apiName || !canSeeRecord(principal, object, row)) return null;
        const { values, merged, changedFields } = checkUpdate(principal, { row, object }, write.fields, contextOf);
        checked.push({
          write,
          id,
          values: merged,
          referenced: values,
          candidate: {
            kind: 'update',
            values: merged,
            excludeId: id,
            changedFields,
            allowSaveOnDuplicate: options.allowSaveOnDuplicate,
          },
        });
      }
    }
  } catch (error) {
    if (isRefusal(error)) return null;
    throw error;
  }

  // The references, read in one statement, as checkReferences checks each record's.
  const referenced = [...new Set(checked.flatMap((one) => referencedIds(object, one.referenced)))];
  const targets = new Map<string, RecordRow>();
  if (referenced.length > 0) {
    const { rows } = await tx.query<RecordRow>(`SELECT ${RECORD_COLUMNS} FROM record WHERE id = ANY($1::text[])`, [
      referenced,
    ]);
    for (const row of rows) targets.set(row.id, row);
  }
  for (const one of checked)
    if (Object.keys(referenceErrors(org, principal, object, one.referenced, targets)).length > 0) return null;
  if (
    await options.mayRefuseDuplicates(
      tx,
      principal,
      object,
      checked.map((one) => one.candidate),
    )
  )
    return null;

  const now = options.now.toISOString();
  const updates = checked.filter((one) => one.write.kind === 'update');
  if (updates.length > 0)
    await tx.query(
      `UPDATE record AS r SET fields = v.fields::jsonb, last_modified_date = $1::timestamptz, last_modified_by_id = $2,
         system_modstamp = GREATEST($1::timestamptz, r.system_modstamp + interval '1 millisecond')
       FROM unnest($3::text[], $4::text[]) AS v(id, fields) WHERE r.id = v.id`,
      [now, principal.userId, updates.map((one) => one.id), updates.map((one) => JSON.stringify(one.values))],
    );
  const creates = checked.filter((one) => one.write.kind === 'create');
  if (creates.length > 0) {
    // The creates' sequence numbers, taken at once: the last of them comes back.
    const { rows } = await tx.query<{ last_value: string | number }>(
      `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, $2::bigint)
       ON CONFLICT (key_prefix) DO UPDATE SET last_value = id_sequence.last_value + $2::bigint RETURNING last_value`,
      [object.definition.keyPrefix, creates.length],
    );
    const first = Number(rows[0].last_value) - creates.length + 1;
    for (const [index, one] of creates.entries()) {
      const sequence = first + index;
      for (const field of object.fields) {
        if (typeof field.autoNumber === 'string')
          one.values[field.apiName] = autoNumberText(field.autoNumber, sequence);
      }
      Object.assign(one.values, derivedValues(object.fields, one.values));
      one.id = makeId(object.definition.keyPrefix, sequence);
    }
    await tx.query(
      `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
       SELECT v.id, $1, v.record_type_id, v.fields::jsonb, $2::timestamptz, $3, $2::timestamptz, $3, $2::timestamptz
       FROM unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS v(id, record_type_id, fields, n) ORDER BY v.n`,
      [
        object.apiName,
        now,
        principal.userId,
        creates.map((one) => one.id),
        creates.map((one) => one.recordTypeId),
        creates.map((one) => JSON.stringify(one.values)),
      ],
    );
  }
  const ids = checked.map((one) => one.id!);
  // The user's use of each record, in the writes' order (mru.ts noteRecordUsed, for all of them at once).
  if (!principal.isGuest)
    await tx.query(
      `INSERT INTO mru_record (user_id, record_id, object_api_name, used_at)
       SELECT $1, v.id, $2, clock_timestamp() FROM unnest($3::text[]) WITH ORDINALITY AS v(id, n) ORDER BY v.n
       ON CONFLICT (user_id, record_id) DO UPDATE SET used_at = EXCLUDED.used_at, object_api_name = EXCLUDED.object_api_name`,
      [principal.userId, object.apiName, ids],
    );
  return ids;
}
