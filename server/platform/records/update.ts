/**
 * Updating records: the checks of an update on the record as it is, and its writing, in a transaction under the row
 * lock or, for updates of one record in turn, in one statement written only if the record is as expected.
 */
import type { Database, Queryable } from '../../db/connection.ts';
import type { DescribedObject, OrgDescribe } from '../core/describe.ts';
import { describeOrg } from '../core/describe.ts';
import { PlatformError } from '../core/errors.ts';
import { MASTER_RECORD_TYPE_ID, toId18 } from '../core/ids.ts';
import { noteUseStatement } from './mru.ts';
import { objectPermissions, type Principal } from '../core/principal.ts';
import { canEditRecord } from './access.ts';
import { fieldNamed } from './field-paths.ts';
import { fetchRows } from './rows.ts';
import { RECORD_COLUMNS, type RecordRepresentation, type RecordRow } from './representation.ts';
import { derivedValues, type FieldValue } from './values.ts';
import {
  checkWrite,
  recordError,
  RecordWriteError,
  withoutRecordType,
  WRITE_FAILED_MESSAGE,
  type WriteCheck,
} from './write-rules.ts';
import { writeTurnsOf, type WriteTurn } from './write-turns.ts';
import {
  changedSince,
  checkReferences,
  everyContext,
  insufficientAccess,
  lockVisible,
  visibleRecord,
  noRightsOnRecord,
  nowOf,
  readWritten,
  recordIdOf,
  type RecordInput,
  type WriteOptions,
  type ValueContextOf,
} from './write.ts';

/** What an update writes, every check passed: the record as checked, its object, and its fields as they will be. */
interface PlannedUpdate {
  row: RecordRow;
  object: DescribedObject;
  merged: Record<string, FieldValue>;
}

/** An update's checks on the record as it is, made without the database: its fields as written and as they will be. */
interface CheckedUpdate {
  /** The fields the update writes, checked (checkWrite's values). */
  values: Record<string, FieldValue>;
  /** The record's fields once updated, derived values included. */
  merged: Record<string, FieldValue>;
  /** The fields whose value changes, which decide the matching rules that run. */
  changedFields: string[];
}

/**
 * The checks of an update that need no query (permissions, the Id, the record type, the fields' own rules) on a
 * record the caller may see (visibleRecord); throws what a check finds. The references and the duplicate rules
 * are checked apart (planUpdate; an import's batches, in bulk).
 */
export function checkUpdate(
  principal: Principal,
  { row, object }: { row: RecordRow; object: DescribedObject },
  fields: Record<string, FieldValue>,
  contextOf: ValueContextOf,
  ifUnmodifiedSince?: Date,
): CheckedUpdate {
  if (!objectPermissions(principal, object.apiName).edit || !object.definition.flags?.updateable)
    throw insufficientAccess(`edit ${object.definition.labelPlural}`);
  if (!canEditRecord(principal, object, row)) throw noRightsOnRecord();
  if (ifUnmodifiedSince && changedSince(row.last_modified_date, ifUnmodifiedSince)) {
    throw new PlatformError(
      412,
      'PRECONDITION_FAILED',
      `The record was modified after ${ifUnmodifiedSince.toUTCString()}`,
    );
  }
  if ('Id' in fields && (typeof fields.Id !== 'string' || toId18(fields.Id) !== row.id)) {
    throw new RecordWriteError({
      enhancedErrorType: 'RecordError',
      message: WRITE_FAILED_MESSAGE,
      output: {
        errors: [],
        fieldErrors: {
          Id: [
            recordError(
              'INVALID_ID_FIELD',
              `The Id ${String(fields.Id)} does not name the record being updated`,
              fieldNamed(object, 'Id') ?? null,
            ),
          ],
        },
      },
    });
  }
  const recordTypeId = row.record_type_id ?? MASTER_RECORD_TYPE_ID;
  const { values } = checkWrite(
    principal,
    object,
    'update',
    withoutRecordType(object, fields, recordTypeId),
    contextOf(object, recordTypeId),
    row.fields,
  );
  const merged = { ...row.fields, ...values };
  Object.assign(merged, derivedValues(object.fields, merged));
  const changedFields = Object.keys(values).filter((name) => values[name] !== row.fields[name]);
  return { values, merged, changedFields };
}

/**
 * Checks an update of a record as it is (the row given, of an object the caller may see: visibleRecord) and makes the
 * fields it writes; throws what a check finds.
 */
async function planUpdate(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  { row, object }: { row: RecordRow; object: DescribedObject },
  fields: Record<string, FieldValue>,
  contextOf: ValueContextOf,
  ifUnmodifiedSince: Date | undefined,
  check: WriteCheck,
): Promise<PlannedUpdate> {
  const { values, merged, changedFields } = checkUpdate(
    principal,
    { row, object },
    fields,
    contextOf,
    ifUnmodifiedSince,
  );
  await checkReferences(q, org, principal, object, values);
  // The duplicate rules run on the record as it will be, for the matching rules whose fields change.
  await check.beforeWrite(q, principal, object, 'update', merged, {
    allowSaveOnDuplicate: check.allowSaveOnDuplicate,
    excludeId: row.id,
    changedFields,
  });
  return { row, object, merged };
}

/**
 * Writes a planned update: the transaction's last statement, which carries its COMMIT when `last`. With `unlessChangedFrom`,
 * only if the record's fields and record type are still those of that row (no row comes back otherwise).
 */
async function writeUpdate(
  q: Queryable,
  principal: Principal,
  id: string,
  { object, merged }: PlannedUpdate,
  now: Date,
  { last = false, unlessChangedFrom }: { last?: boolean; unlessChangedFrom?: RecordRow } = {},
): Promise<RecordRow | undefined> {
  const parameters: unknown[] = [id, JSON.stringify(merged), now.toISOString(), principal.userId];
  // The user's use of the record is noted by the same statement, and the record comes back as saved: the row
  // stays locked one round trip less, and is not read again for the answer. By primary key: the same plan for
  // every record, made once per connection.
  const noting = !principal.isGuest;
  if (noting) parameters.push(object.apiName);
  let guard = '';
  if (unlessChangedFrom) {
    guard = ` AND fields = $${parameters.length + 1}::jsonb AND record_type_id IS NOT DISTINCT FROM $${parameters.length + 2}`;
    parameters.push(JSON.stringify(unlessChangedFrom.fields), unlessChangedFrom.record_type_id);
  }
  const update = `UPDATE record SET fields = $2::jsonb, last_modified_date = $3, last_modified_by_id = $4,
       system_modstamp = GREATEST($3::timestamptz, system_modstamp + interval '1 millisecond')
     WHERE id = $1${guard} RETURNING ${RECORD_COLUMNS}`;
  const name = `record_update${noting ? '_noting_use' : ''}${guard ? '_unless_changed' : ''}`;
  const { rows } = await q.query<RecordRow>(
    noting ? `WITH noted AS (${noteUseStatement('$4', '$1', '$5')}) ${update}` : update,
    parameters,
    {
      prepareAs: name,
      last,
    },
  );
  return rows[0];
}

/** Updates a record inside a transaction; returns its object and the record as saved. `contextOf` gives value contexts. */
export async function updateRow(
  q: Queryable,
  org: OrgDescribe,
  principal: Principal,
  id: string,
  fields: Record<string, FieldValue>,
  contextOf: ValueContextOf,
  now: Date,
  ifUnmodifiedSince: Date | undefined,
  options: WriteCheck & {
    /** Whether the UPDATE is the transaction's last statement, which carries its COMMIT. */
    lastStatement?: boolean;
    /** Called with the record as the UPDATE will leave it, when the UPDATE is about to be sent. */
    beforeLastStatement?: (planned: RecordRow) => void;
  },
): Promise<{ object: DescribedObject; row: RecordRow }> {
  const planned = await planUpdate(
    q,
    org,
    principal,
    await lockVisible(q, org, principal, id),
    fields,
    contextOf,
    ifUnmodifiedSince,
    options,
  );
  options.beforeLastStatement?.({ ...planned.row, fields: planned.merged });
  const saved = await writeUpdate(q, principal, id, planned, now, { last: options.lastStatement === true });
  return { object: planned.object, row: saved! };
}

/** PATCH /records/{recordId}: writes the fields, once beforeWrite has let it, and returns the record as saved. */
export async function updateRecord(
  db: Database,
  principal: Principal,
  recordId: string,
  input: RecordInput,
  options: WriteOptions & Pick<WriteCheck, 'beforeWrite'> & { ifUnmodifiedSince?: Date },
): Promise<RecordRepresentation> {
  const id = recordIdOf(recordId);
  const org = await describeOrg(db);
  const contextOf = await everyContext(db, org);
  const now = nowOf(options);
  // The record's turn among this process's updates of it, before a connection is taken (write-turns.ts).
  const turns = writeTurnsOf(db);
  const turn = await turns.take(id);
  const check = { beforeWrite: options.beforeWrite, allowSaveOnDuplicate: input.allowSaveOnDuplicate };
  let building: Promise<RecordRepresentation>;
  try {
    const unlocked = options.ifUnmodifiedSince
      ? undefined
      : await updateAsExpected(db, org, principal, id, input.fields, check, contextOf, now, turn);
    let saved: RecordRow;
    if (unlocked) {
      saved = unlocked.row;
      building = readWritten(db, principal, id, unlocked.object, Object.keys(input.fields), options, unlocked.row);
    } else {
      // The answer is built from the record as its UPDATE returned it (what it reads besides, its related records,
      // is not what the transaction changes), and sent once the transaction has committed: on PostgreSQL the
      // UPDATE carries the COMMIT, so the row is locked for two round trips (the lock, the update).
      ({ building, saved } = await db.transaction(async (tx) => {
        const { object, row } = await updateRow(
          tx,
          org,
          principal,
          id,
          input.fields,
          contextOf,
          now,
          options.ifUnmodifiedSince,
          {
            ...check,
            lastStatement: true,
            beforeLastStatement: turn.pass,
          },
        );
        const reading = readWritten(db, principal, id, object, Object.keys(input.fields), options, row);
        // Awaited below once committed; if the commit fails, its error is the one thrown.
        reading.catch(() => undefined);
        return { building: reading, saved: row };
      }));
    }
    // Committed, and this process has heard of it (the transaction returns once it has).
    turns.written(saved);
  } finally {
    // Written (or not): an update waiting behind the ones in flight may go.
    turn.end();
  }
  return building;
}

/**
 * The update in one statement, with no row lock held between statements: checked against the record as the
 * update before it in turn leaves it (or as read, for the first), and written only if the record is still that
 * when the statement runs (it waits for that update's lock, then compares). A record updated many times at once is
 * then written one statement after another, with no round trip to the server between them.
 *
 * With no update before it in turn, the record is the one this process's last update of it left, while no change
 * of it has been heard since (WriteTurn.expected), else it is read.
 *
 * A check that fails on the record as read is the answer: the update changes nothing, as if made at the read.
 * Undefined when a check failed on what an update before left or will leave (it may not be written, or may have
 * been changed since), or when the record is not as expected (another process wrote it, the update before
 * failed): the update is then made under the row lock, where the checks decide on the record as it is.
 */
async function updateAsExpected(
  db: Database,
  org: OrgDescribe,
  principal: Principal,
  id: string,
  fields: Record<string, FieldValue>,
  check: WriteCheck,
  contextOf: ValueContextOf,
  now: Date,
  turn: WriteTurn,
): Promise<{ object: DescribedObject; row: RecordRow } | undefined> {
  const expected = turn.expected ?? (await fetchRows(db, [id])).get(id);
  let planned: PlannedUpdate;
  try {
    planned = await planUpdate(
      db,
      org,
      principal,
      visibleRecord(org, principal, expected),
      fields,
      contextOf,
      undefined,
      check,
    );
  } catch (error) {
    if (turn.expected) return undefined;
    throw error;
  }
  turn.pass({ ...planned.row, fields: planned.merged });
  const row = await db.transaction((tx) =>
    writeUpdate(tx, principal, id, planned, now, { last: true, unlessChangedFrom: planned.row }),
  );
  return row ? { object: planned.object, row } : undefined;
}
