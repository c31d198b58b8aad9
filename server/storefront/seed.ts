/** Writes the demo Contact Us records: at first start, and in bulk for benchmarks (npm run seed). */
import type { Database } from '../db/connection.ts';
import { makeId, MASTER_RECORD_TYPE_ID } from '../platform/core/ids.ts';
import { ADMIN_USER_ID } from '../platform/core/principal.ts';
import { CONTACT_US_KEY_PREFIX, CONTACT_US_OBJECT, demoContact, type ContactFields } from './demo-contacts.ts';

const BATCH = 5000;
const EPOCH = Date.UTC(2025, 0, 6, 14, 0, 0);

export async function contactCount(db: Database): Promise<number> {
  const { rows } = await db.query<{ last_value: string | number }>(
    'SELECT last_value FROM id_sequence WHERE key_prefix = $1',
    [CONTACT_US_KEY_PREFIX],
  );
  return rows.length ? Number(rows[0].last_value) : 0;
}

/**
 * Adds demo contacts until the object has `target` of them. Contacts already there are kept; the n-th
 * contact is the same in every run. onProgress gets the number written so far.
 */
export async function seedContacts(db: Database, target: number, onProgress?: (done: number) => void): Promise<number> {
  let written = await contactCount(db);
  while (written < target) {
    const end = Math.min(target, written + BATCH);
    // The demo contacts are the administrator's: created, last changed and owned by them.
    const batch: { id: string; at: string; fields: ContactFields & { OwnerId: string } }[] = [];
    for (let sequence = written + 1; sequence <= end; sequence++) {
      const at = new Date(EPOCH + sequence * 60_000).toISOString();
      batch.push({
        id: makeId(CONTACT_US_KEY_PREFIX, sequence),
        at,
        fields: { ...demoContact(sequence), OwnerId: ADMIN_USER_ID },
      });
    }
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
         SELECT r ->> 'id', $2, $3, r -> 'fields', (r ->> 'at')::timestamptz, $4, (r ->> 'at')::timestamptz, $4, (r ->> 'at')::timestamptz
         FROM jsonb_array_elements($1::jsonb) AS r`,
        [JSON.stringify(batch), CONTACT_US_OBJECT, MASTER_RECORD_TYPE_ID, ADMIN_USER_ID],
      );
      await tx.query(
        `INSERT INTO id_sequence (key_prefix, last_value) VALUES ($1, $2)
         ON CONFLICT (key_prefix) DO UPDATE SET last_value = GREATEST(id_sequence.last_value, EXCLUDED.last_value)`,
        [CONTACT_US_KEY_PREFIX, end],
      );
    });
    written = end;
    onProgress?.(written);
  }
  return written;
}
