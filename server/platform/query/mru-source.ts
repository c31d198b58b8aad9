/** The recent records of a user as a source of list queries: the rows records/mru.ts keeps, newest first. */
import type { JoinedSource } from './select.ts';

/** The user's recently used records of an object, most recent first, for the query core. */
export function mruSource(userId: string, objectApiName: string): JoinedSource {
  return {
    join: (alias, parameters) =>
      `JOIN mru_record m ON m.record_id = ${alias}.id AND m.user_id = ${parameters.add(userId, 'text')} AND m.object_api_name = ${parameters.add(objectApiName, 'text')}`,
    orderBy: 'm.used_at DESC',
    keys: [{ value: 'm.used_at', descending: true, type: 'timestamptz' }],
  };
}
