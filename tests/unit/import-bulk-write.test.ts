/**
 * An import's batches written in bulk (server/platform/records/bulk-write.ts) over a real database (PGlite, and
 * PostgreSQL when TEST_DATABASE_URL names one): one INSERT per batch of new rows; the same records, history rows
 * and recently-used entries as the batch operation writes; and a batch that a record written since the dry run
 * makes fail written one record at a time, its failing row reported.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/connection.ts';
import { mayRefuseDuplicates } from '../../server/platform/duplicates/in-batch.ts';
import { enforceDuplicateRules } from '../../server/platform/duplicates/match.ts';
import { commitImport } from '../../server/platform/import/commit.ts';
import { batchMetadata, executeBatchIn } from '../../server/platform/records/batch.ts';
import { writeInBulk, type BulkWrite } from '../../server/platform/records/bulk-write.ts';
import { admin, contactCount, newContacts, OBJECT, useImportDatabase } from '../support/import.ts';
import { databases } from '../support/server.ts';

/** Rolls a transaction back, carrying what it read. */
class Undo extends Error {
  constructor(readonly state: unknown) {
    super('undone');
  }
}

describe.each(databases())('an import written in bulk on %s', (kind) => {
  const database = useImportDatabase(kind);
  let db: Database;
  beforeAll(() => {
    db = database();
  });

  it('inserts each batch of new rows in one statement', async () => {
    await db.exec(`CREATE TABLE bulk_test_insert (records int);
      CREATE FUNCTION bulk_test_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO bulk_test_insert SELECT count(*) FROM new_rows WHERE id NOT LIKE '017%' HAVING count(*) > 0; RETURN NULL; END $$;
      CREATE TRIGGER bulk_test_count AFTER INSERT ON record REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bulk_test_count()`);
    try {
      const report = await commitImport(db, admin, OBJECT, newContacts(450, 'Bulk'), {});
      expect(report.totals).toMatchObject({ created: 450, failed: 0 });
      expect(report.history!.rows).toBe(450);
      const { rows } = await db.query<{ records: number }>('SELECT records FROM bulk_test_insert');
      expect(rows.map((row) => row.records)).toEqual([200, 200, 50]);
    } finally {
      await db.exec(
        'DROP TRIGGER bulk_test_count ON record; DROP FUNCTION bulk_test_count(); DROP TABLE bulk_test_insert',
      );
    }
  });

  it('writes the records, history and recently-used entries the batch operation writes', async () => {
    await commitImport(db, admin, OBJECT, newContacts(2, 'Kept'), {});
    const { rows: kept } = await db.query<{ id: string }>(
      `SELECT id FROM record WHERE object_api_name = $1 ORDER BY id`,
      [OBJECT],
    );
    const writes: BulkWrite[] = [
      { kind: 'create', fields: { APT_Company_Name__c: 'New One', APT_Email__c: 'new1@example.com' } },
      { kind: 'update', fields: { Id: kept[1].id, APT_City__c: 'Dallas', APT_Phone__c: '555 9999' } },
      {
        kind: 'create',
        fields: {
          APT_Company_Name__c: 'New Two',
          APT_Country__c: 'Canada',
          APT_Primary_State__c: 'Ontario',
          APT_Brand__c: 'Arcline;Gridmark',
        },
      },
      { kind: 'update', fields: { Id: kept[0].id, APT_Default_Contact__c: true } },
    ];
    const now = new Date('2026-03-04T05:06:07.000Z');
    const metadata = await batchMetadata(db);
    const object = metadata.org.objects.get(OBJECT)!;
    // What a transaction wrote, then rolled back: the records it wrote, their history and the user's MRU order.
    const written = async (write: (tx: Queryable) => Promise<string[]>) => {
      try {
        await db.transaction(async (tx) => {
          const ids = await write(tx);
          const { rows: records } = await tx.query(
            `SELECT id, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp
             FROM record WHERE id = ANY($1::text[]) ORDER BY id`,
            [ids],
          );
          const { rows: history } = await tx.query(
            `SELECT object_api_name, fields - 'TransactionId' AS fields, created_date, created_by_id FROM record
             WHERE id LIKE '017%' AND fields ->> 'ParentId' = ANY($1::text[]) ORDER BY fields ->> 'ParentId', id`,
            [ids],
          );
          const { rows: used } = await tx.query<{ record_id: string }>(
            'SELECT record_id FROM mru_record WHERE user_id = $1 AND record_id = ANY($2::text[]) ORDER BY used_at',
            [admin.userId, ids],
          );
          throw new Undo({ ids, records, history, used: used.map((row) => row.record_id) });
        });
      } catch (error) {
        if (error instanceof Undo) return error.state as { ids: string[] };
        throw error;
      }
      throw new Error('not rolled back');
    };
    const inBulk = await written(async (tx) => {
      const ids = await writeInBulk(tx, admin, object, writes, {
        ...metadata,
        now,
        allowSaveOnDuplicate: true,
        mayRefuseDuplicates,
      });
      expect(ids).not.toBeNull();
      return ids!;
    });
    const oneByOne = await written(async (tx) => {
      const outcomes = await executeBatchIn(
        metadata,
        tx,
        admin,
        {
          allOrNone: true,
          operations: writes.map((write) => ({
            type: write.kind === 'create' ? 'CREATE' : 'UPDATE',
            records: [
              {
                ...(write.kind === 'create' ? { apiName: OBJECT } : {}),
                fields: write.fields,
                allowSaveOnDuplicate: true,
              },
            ],
          })),
        },
        { clock: { now: () => now.getTime() }, beforeWrite: enforceDuplicateRules },
      );
      expect(outcomes.every((outcome) => outcome.errors === null)).toBe(true);
      return outcomes.map((outcome) => outcome.id!);
    });
    expect(inBulk.ids).toHaveLength(4);
    expect(inBulk).toEqual(oneByOne);
  });

  it('writes a batch one record at a time when a record written since the dry run makes a row fail', async () => {
    // Once the first batch is written (its last statement notes the records used), a record with the e-mail and
    // phone of line 301, which a blocking rule finds.
    await db.exec(`CREATE FUNCTION bulk_test_race() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO record (id, object_api_name, record_type_id, fields, created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp)
        SELECT record_id_of(left(id, 3), 900000), object_api_name, record_type_id, fields || '{"APT_Email__c": "race300@example.com", "APT_Phone__c": "555 0300", "APT_Company_Name__c": "Elsewhere"}', created_date, created_by_id, last_modified_date, last_modified_by_id, system_modstamp
        FROM record WHERE object_api_name = 'APT_Contact_Us__c' AND fields ->> 'APT_Company_Name__c' = 'Race Company 200'
          AND NOT EXISTS (SELECT FROM record WHERE fields ->> 'APT_Company_Name__c' = 'Elsewhere'); RETURN NULL; END $$;
      CREATE TRIGGER bulk_test_race AFTER INSERT ON mru_record FOR EACH STATEMENT EXECUTE FUNCTION bulk_test_race()`);
    try {
      const report = await commitImport(db, admin, OBJECT, newContacts(450, 'Race'), {});
      expect(report.totals).toMatchObject({ new: 450, created: 449, failed: 1 });
      const failed = report.rows.filter((row) => row.outcome === 'failed');
      expect(failed.map((row) => row.line)).toEqual([301]);
      expect(failed[0].errors.map((error) => error.message)).toContain(
        'A contact with this email address and phone number already exists.',
      );
      expect(report.rows.filter((row) => row.outcome === 'created')).toHaveLength(449);
      expect(await contactCount(db)).toBe(450);
    } finally {
      await db.exec('DROP TRIGGER bulk_test_race ON mru_record; DROP FUNCTION bulk_test_race()');
    }
  });
});
