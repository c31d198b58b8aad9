/**
 * An import's dry run over a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL names one): its
 * statuses, changes and reasons, the duplicate rules in the database and within the file, the saved mapping.
 * The commit's tests are import-commit.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CACHES_ON } from '../../server/cache/switch.ts';
import type { Database } from '../../server/db/connection.ts';
import { STANDARD_USER_ID, profileNamed, type Principal } from '../../server/platform/core/principal.ts';
import { dryRunImport } from '../../server/platform/import/dry-run.ts';
import type { ImportReport } from '../../common/import-report.ts';
import { ImportError } from '../../server/platform/import/errors.ts';
import { readSavedMapping, saveMapping } from '../../server/platform/import/mapping.ts';
import { enforceDuplicateRules } from '../../server/platform/duplicates/match.ts';
import type { FieldValue } from '../../server/platform/records/values.ts';
import { createRecord } from '../../server/platform/records/write.ts';
import { admin, contactCount, csv, HEADER, OBJECT, useImportDatabase } from '../support/import.ts';
import { databases } from '../support/server.ts';

const standard: Principal = { userId: STANDARD_USER_ID, isGuest: false, profile: profileNamed('Standard User') };

const statuses = (report: ImportReport) => report.rows.map((row) => row.status);
const messages = (report: ImportReport, line: number) =>
  report.rows.find((row) => row.line === line)!.errors.map((error) => error.message);

/** Creates records as the record API does; their ids. */
async function seed(records: Record<string, FieldValue>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const fields of records) {
    const created = await createRecord(
      db,
      admin,
      { apiName: OBJECT, fields, allowSaveOnDuplicate: true },
      { beforeWrite: enforceDuplicateRules },
    );
    ids.push(created.id);
  }
  return ids;
}

let db: Database;

describe.each(databases())('the dry run of an import on %s', (kind) => {
  const database = useImportDatabase(kind);
  beforeAll(() => {
    db = database();
  });

  it('reports new, changed, unchanged and invalid rows, with every reason', async () => {
    const first = await seed([
      {
        APT_Company_Name__c: 'Acme',
        APT_Email__c: 'info@acme.example',
        APT_Phone__c: '555 0100',
        APT_Country__c: 'United States',
        APT_Primary_State__c: 'Texas',
        APT_Brand__c: 'Arcline;Ironspan',
        APT_City__c: 'Austin',
      },
      {
        APT_Company_Name__c: 'Bolt',
        APT_Email__c: 'sales@bolt.example',
        APT_Phone__c: '555 0200',
        APT_Country__c: 'Canada',
        APT_Primary_State__c: 'Ontario',
        APT_Brand__c: 'Gridmark',
        APT_Default_Contact__c: true,
        APT_City__c: 'Toronto',
      },
    ]);
    const report = await dryRunImport(
      db,
      admin,
      OBJECT,
      csv([
        HEADER,
        // unchanged: the same values, the brands in another order, the e-mail's case as stored
        'Acme,info@acme.example,555 0100,United States,Texas,Ironspan;Arcline,false,Austin',
        // changed: matched by company + e-mail, the phone and city differ
        'Bolt,sales@bolt.example,555 0199,Canada,Ontario,Gridmark,true,Ottawa',
        // new
        'Cogs,hello@cogs.example,555 0300,Mexico,Jalisco,Conduvex,false,Guadalajara',
        // invalid: no company (required, and the key is blank)
        ',x@none.example,555 0400,United States,Texas,Arcline,false,Austin',
        // invalid: a brand not in the picklist
        'Dyna,d@dyna.example,555 0500,United States,Texas,Arcline;Foo,false,Austin',
        // invalid: a state not of its country
        'Elec,e@elec.example,555 0600,Canada,Texas,Arcline,false,Toronto',
        // invalid: not an e-mail
        'Ferro,not-an-email,555 0700,United States,Texas,Arcline,false,Austin',
        // invalid: the same key as line 4
        'Cogs,hello@cogs.example,555 0301,Mexico,Jalisco,Conduvex,false,Guadalajara',
        // invalid: blocked by the rule on e-mail and phone (Acme's)
        'Acme Two,info@acme.example,555-0100,United States,Texas,Arcline,false,Austin',
      ]),
    );
    expect(statuses(report)).toEqual([
      'unchanged',
      'changed',
      'new',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    expect(report.totals).toMatchObject({ rows: 9, new: 1, changed: 1, unchanged: 1, invalid: 6 });
    expect(report.rows[1].changes).toEqual([
      { field: 'APT_Phone__c', label: 'Phone', old: '555 0200', new: '555 0199' },
      { field: 'APT_City__c', label: 'City', old: 'Toronto', new: 'Ottawa' },
    ]);
    expect(report.rows[0].recordId).toBe(first[0]);
    expect(messages(report, 5).join(' ')).toMatch(/match key Company Name \+ Email is blank/);
    expect(messages(report, 6)).toEqual(['Brand: bad value for restricted picklist field: Foo']);
    expect(messages(report, 7)).toEqual(['Primary State/Province: Texas is not valid for APT_Country__c Canada']);
    expect(messages(report, 8)).toEqual(['Email: invalid email address: not-an-email']);
    expect(messages(report, 9)).toEqual(['A duplicate within the file (line 4)']);
    expect(messages(report, 10)[0]).toMatch(/^A contact with this email address and phone number already exists/);
    expect(await contactCount(db)).toBe(2);
  });

  it('marks later rows that duplicate earlier ones under a blocking rule, and warns of an alerting one', async () => {
    const report = await dryRunImport(
      db,
      admin,
      OBJECT,
      csv([
        HEADER,
        'Acme,same@example.com,555 0100,United States,Texas,Arcline,false,Austin',
        'Acme Corp,SAME@example.com,(555) 0100,United States,Texas,Arcline,false,Austin',
      ]),
      { matchKey: ['APT_Company_Name__c'] },
    );
    expect(statuses(report)).toEqual(['new', 'invalid']);
    expect(messages(report, 3)[0]).toMatch(/already exists\. \(a duplicate within the file: line 2\)$/);

    await seed([{ APT_Company_Name__c: 'Acme', APT_Email__c: 'a@acme.example', APT_Phone__c: '555 0100' }]);
    const alert = await dryRunImport(
      db,
      admin,
      OBJECT,
      csv([HEADER, 'Acme Inc,a@acme.example,555 0999,United States,Texas,,false,']),
      { matchKey: ['APT_Company_Name__c'] },
    );
    expect(statuses(alert)).toEqual(['new']);
    expect(alert.rows[0].warnings[0].message).toMatch(/^You're creating a duplicate record/);
  });
  it('saves a mapping per user and uses it when the request chooses none', async () => {
    expect(await readSavedMapping(db, admin, OBJECT)).toEqual({});
    await saveMapping(db, admin, OBJECT, { Firma: 'apt_company_name__c', 'E-Mail': 'APT_Email__c', Notes: null });
    expect(await readSavedMapping(db, admin, OBJECT)).toEqual({
      Firma: 'APT_Company_Name__c',
      'E-Mail': 'APT_Email__c',
      Notes: null,
    });
    expect(await readSavedMapping(db, standard, OBJECT)).toEqual({});
    const file = csv(['Firma;E-Mail;Notes;City', 'Acme;a@acme.example;hello;Austin']);
    const report = await dryRunImport(db, admin, OBJECT, file);
    expect(report.columns.map((column) => [column.header, column.field, column.by])).toEqual([
      ['Firma', 'APT_Company_Name__c', 'saved'],
      ['E-Mail', 'APT_Email__c', 'saved'],
      ['Notes', null, null],
      ['City', 'APT_City__c', 'label'],
    ]);
    expect(statuses(report)).toEqual(['new']);
    // A mapping given with the request is used instead: its columns as it says, the others by name.
    const chosen = await dryRunImport(db, admin, OBJECT, file, { mapping: { Notes: 'APT_Address_1__c' } }).catch(
      (error: unknown) => error,
    );
    expect(chosen).toBeInstanceOf(ImportError);
    expect((chosen as ImportError).errorCode).toBe('INVALID_MATCH_KEY');
    await expect(saveMapping(db, admin, OBJECT, { Firma: 'NoSuchField' })).rejects.toMatchObject({
      errorCode: 'INVALID_MAPPING',
    });
    await expect(readSavedMapping(db, admin, 'NoSuchObject')).rejects.toMatchObject({ status: 404 });
  });

  it('matches the key without regard to case, and reports the new case as a change', async () => {
    const [acme] = await seed([{ APT_Company_Name__c: 'Acme', APT_Email__c: 'a@acme.example' }]);
    const report = await dryRunImport(db, admin, OBJECT, csv(['Company Name,Email', 'ACME,A@Acme.example']));
    expect(report.rows[0]).toMatchObject({ status: 'changed', recordId: acme });
    expect(report.rows[0].changes.map((change) => [change.old, change.new])).toEqual([
      ['Acme', 'ACME'],
      ['a@acme.example', 'A@Acme.example'],
    ]);
  });

  it('maps a field the user may not edit as read-only: neither compared nor written', async () => {
    const [acme] = await seed([{ APT_Company_Name__c: 'Acme', APT_Email__c: 'a@acme.example', APT_City__c: 'Austin' }]);
    const report = await dryRunImport(
      db,
      standard,
      OBJECT,
      csv([
        'Id,Company Name,Email,City,Default Contact',
        `${acme},Acme,a@acme.example,Dallas,true`,
        ',Bolt,b@bolt.example,Boston,true',
      ]),
    );
    expect(report.columns.map((column) => [column.field, column.readOnly])).toEqual([
      ['Id', true],
      ['APT_Company_Name__c', false],
      ['APT_Email__c', false],
      ['APT_City__c', false],
      ['APT_Default_Contact__c', true],
    ]);
    // Contact Us records are read and written by every user who may edit the object.
    expect(statuses(report)).toEqual(['changed', 'new']);
    expect(report.rows[0].changes).toEqual([{ field: 'APT_City__c', label: 'City', old: 'Austin', new: 'Dallas' }]);
  });

  it("reads the record table's indexes once for the match key, not at every dry run", async () => {
    const statements: string[] = [];
    const counting = new Proxy(db, {
      get(target, name) {
        if (name === 'query')
          return (sql: string, params?: unknown[]) => {
            statements.push(sql);
            return target.query(sql, params);
          };
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const file = csv([HEADER, 'Acme,a@acme.example,1,United States,Texas,,false,']);
    for (let run = 0; run < 3; run++) expect((await dryRunImport(counting, admin, OBJECT, file)).totals.new).toBe(1);
    expect(statements.filter((sql) => sql.includes('pg_indexes'))).toHaveLength(CACHES_ON ? 1 : 3);
  });

  it('refuses a file with no column it can import', async () => {
    await expect(dryRunImport(db, admin, OBJECT, csv(['Foo,Bar', '1,2']))).rejects.toMatchObject({
      errorCode: 'NO_MAPPABLE_COLUMN',
      status: 400,
    });
    await expect(dryRunImport(db, admin, OBJECT, csv(['Id,Name', 'x,y']))).rejects.toMatchObject({
      errorCode: 'NO_MAPPABLE_COLUMN',
    });
  });
});
