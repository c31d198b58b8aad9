/**
 * An import's commit over a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL names one): run twice,
 * cut short and run again, all or nothing, an alerting duplicate rule's records saved; and the export of a list
 * view imported back with no change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { commitImport, HISTORY_ROWS_SQL } from '../../server/platform/import/commit.ts';
import { dryRunImport } from '../../server/platform/import/dry-run.ts';
import { exportListRecords } from '../../server/platform/lists/export.ts';
import { createListInfo } from '../../server/platform/lists/write.ts';
import { admin, bytes, contactCount, csv, HEADER, newContacts, OBJECT, useImportDatabase } from '../support/import.ts';
import { databases } from '../support/server.ts';

describe.each(databases())('the commit of an import on %s', (kind) => {
  const database = useImportDatabase(kind);
  let db: Database;
  beforeAll(() => {
    db = database();
  });

  it('creates nothing when the same file is imported twice, and names the history it wrote', async () => {
    const file = newContacts(450, 'Twice');
    const progress: [number, number][] = [];
    const first = await commitImport(db, admin, OBJECT, file, {
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(first.totals).toMatchObject({ rows: 450, new: 450, created: 450, updated: 0, failed: 0 });
    expect(progress).toEqual([
      [200, 450],
      [400, 450],
      [450, 450],
    ]);
    expect(first.rows.every((row) => row.outcome === 'created' && row.recordId)).toBe(true);
    expect(first.history!.transactionIds).toHaveLength(3);
    // One "created" history row per record.
    expect(first.history!.rows).toBe(450);
    const second = await commitImport(db, admin, OBJECT, file, {});
    expect(second.totals).toMatchObject({ unchanged: 450, created: 0, updated: 0 });
    expect(second.history).toEqual({ transactionIds: [], rows: 0 });
    expect(await contactCount(db)).toBe(450);
  });

  it('counts the history it wrote through the index of history rows by transaction', async () => {
    let plan = '';
    // Among 5,000 history rows of as many transactions (rolled back), the plan the index allows.
    await db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO record (id, object_api_name, fields, created_date, last_modified_date, system_modstamp)
          SELECT record_id_of('017', 900000 + n), 'APT_Contact_Us__History', jsonb_build_object('TransactionId', n::text), now(), now(), now()
          FROM generate_series(1, 5000) AS n`);
        await tx.query('ANALYZE record');
        await tx.query('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${HISTORY_ROWS_SQL}`, [['1', '2']]);
        plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        throw new Error('rolled back');
      })
      .catch((error: Error) => {
        if (error.message !== 'rolled back') throw error;
      });
    expect(plan).toContain('record_history_transaction');
  });

  it("commits one import of an object at a time: a second commit of the same file finds the first one's rows", async () => {
    const file = newContacts(450, 'Same');
    const [first, second] = await Promise.all([
      commitImport(db, admin, OBJECT, file, {}),
      commitImport(db, admin, OBJECT.toLowerCase(), file, {}),
    ]);
    expect(first.totals).toMatchObject({ new: 450, created: 450 });
    expect(second.totals).toMatchObject({ new: 0, unchanged: 450, created: 0 });
    expect(await contactCount(db)).toBe(450);
  });

  it('finishes an import cut short when it is run again, without duplicates', async () => {
    const file = newContacts(450, 'Cut');
    await expect(
      commitImport(db, admin, OBJECT, file, {
        onProgress: (done) => {
          if (done === 200) throw new Error('the connection was lost');
        },
      }),
    ).rejects.toThrow('the connection was lost');
    expect(await contactCount(db)).toBe(200);
    const again = await commitImport(db, admin, OBJECT, file, {});
    expect(again.totals).toMatchObject({ unchanged: 200, new: 250, created: 250, failed: 0 });
    expect(await contactCount(db)).toBe(450);
  });

  it('writes nothing all or nothing when a row is invalid, or when a write fails', async () => {
    const refused = await commitImport(
      db,
      admin,
      OBJECT,
      csv([HEADER, 'Acme,a@acme.example,1,United States,Texas,,false,', 'Bolt,not-an-email,2,Canada,Ontario,,false,']),
      { allOrNone: true },
    );
    expect(refused.message).toBe('Nothing was written: 1 row is invalid, and the import is all or nothing.');
    expect(refused.rows.map((row) => row.outcome)).toEqual(['not written', 'not written']);
    expect(await contactCount(db)).toBe(0);

    // A write that fails in the third batch, past the dry run: the record table refuses one company.
    await db.exec(`CREATE FUNCTION refuse_import_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.fields ->> 'APT_Company_Name__c' = 'Fail Company 420' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await db.exec(
      'CREATE TRIGGER refuse_import_test BEFORE INSERT ON record FOR EACH ROW EXECUTE FUNCTION refuse_import_test()',
    );
    try {
      await expect(commitImport(db, admin, OBJECT, newContacts(450, 'Fail'), { allOrNone: true })).rejects.toThrow(
        'refused',
      );
      expect(await contactCount(db)).toBe(0);
      // Without all or nothing, the batches before it are kept.
      await expect(commitImport(db, admin, OBJECT, newContacts(450, 'Fail'), {})).rejects.toThrow('refused');
      expect(await contactCount(db)).toBe(400);
    } finally {
      await db.exec('DROP TRIGGER refuse_import_test ON record; DROP FUNCTION refuse_import_test()');
    }
  });

  it('saves the records an alerting duplicate rule finds, which the dry run warned of', async () => {
    await commitImport(
      db,
      admin,
      OBJECT,
      csv([HEADER, 'Acme,a@acme.example,555 0100,United States,Texas,,false,']),
      {},
    );
    const committed = await commitImport(
      db,
      admin,
      OBJECT,
      csv([HEADER, 'Acme Inc,a@acme.example,555 0999,United States,Texas,,false,']),
      { matchKey: ['APT_Company_Name__c'] },
    );
    expect(committed.rows[0].warnings[0].message).toMatch(/^You're creating a duplicate record/);
    expect(committed.totals).toMatchObject({ created: 1, failed: 0 });
    expect(await contactCount(db)).toBe(2);
  });

  it('imports an export of a list view back with no change', async () => {
    await commitImport(
      db,
      admin,
      OBJECT,
      csv([
        HEADER + ',Address 1,Address 2,Zip/Postal Code',
        '=HYPERLINK(1),+1@plus.example,-5 55,United States,Texas,Ironspan;Arcline,true,@home,\'quoted,"two\nlines",\t0123',
        'Plain,plain@example.com,,,,,false,,,,',
        '"Semi; colon, and ""quotes""",q@example.com,555,Canada,Ontario,Gridmark,false,－full,＝x,,',
      ]),
      {},
    );
    const fields = [
      'Name',
      'APT_Company_Name__c',
      'APT_Address_1__c',
      'APT_Address_2__c',
      'APT_City__c',
      'APT_Country__c',
      'APT_Primary_State__c',
      'APT_UI_Country__c',
      'APT_Zip__c',
      'APT_Phone__c',
      'APT_Email__c',
      'APT_Brand__c',
      'APT_Default_Contact__c',
      'OwnerId',
      'CreatedDate',
      'CreatedById',
      'LastModifiedDate',
      'LastModifiedById',
    ];
    await createListInfo(db, admin, OBJECT, { listViewApiName: 'ImportRoundTrip', displayColumns: fields }).catch(
      (error: { errorCode?: string }) => {
        if (error.errorCode !== 'DUPLICATE_DEVELOPER_NAME') throw error;
      },
    );
    const exported = await exportListRecords(
      db,
      admin,
      { objectApiName: OBJECT, listViewApiName: 'ImportRoundTrip' },
      {},
      new Date(),
    );
    let text = '';
    for await (const part of exported.parts) text += part;
    expect(text).toContain("'=HYPERLINK(1)");
    const report = await dryRunImport(db, admin, OBJECT, bytes(text));
    expect(report.rows.map((row) => [row.status, row.changes, row.errors])).toEqual(
      report.rows.map(() => ['unchanged', [], []]),
    );
    expect(report.totals).toMatchObject({ rows: 3, unchanged: 3 });
    const readOnly = report.columns.filter((column) => column.readOnly).map((column) => column.field);
    expect(readOnly).toEqual([
      'Id',
      'Name',
      'APT_UI_Country__c',
      'CreatedDate',
      'CreatedById',
      'LastModifiedDate',
      'LastModifiedById',
    ]);
    expect(report.columns.every((column) => column.by === 'apiName')).toBe(true);
  });
});
