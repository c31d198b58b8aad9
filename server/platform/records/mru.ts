/**
 * Each user's most recently used records: a record read with updateMru=true, and every record the user
 * creates or changes, moves to the top of that user's list of its object (the MRU list, `__Recent`). The
 * time is the database's own clock_timestamp(), so that records used one after the other keep their order
 * whichever server process noted them. Guests share one user and keep no list.
 */
import type { Queryable } from '../../db/connection.ts';
import type { Principal } from '../core/principal.ts';

/**
 * The statement that notes a use, given the placeholders of the user, the record and its object: on its own
 * (noteRecordUsed), or as a WITH query of the statement that changes the record.
 */
export function noteUseStatement(user: string, record: string, object: string): string {
  return `INSERT INTO mru_record (user_id, record_id, object_api_name, used_at) VALUES (${user}, ${record}, ${object}, clock_timestamp())
     ON CONFLICT (user_id, record_id) DO UPDATE SET used_at = EXCLUDED.used_at, object_api_name = EXCLUDED.object_api_name`;
}

/** Notes that the principal used a record of an object (inside the caller's transaction, if any). */
export async function noteRecordUsed(
  q: Queryable,
  principal: Principal,
  recordId: string,
  objectApiName: string,
): Promise<void> {
  if (principal.isGuest) return;
  await q.query(noteUseStatement('$1', '$2', '$3'), [principal.userId, recordId, objectApiName]);
}
