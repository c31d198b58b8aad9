/**
 * Records written through the record engine survive closing and reopening the database: a PGlite data
 * directory, and a PostgreSQL schema when TEST_DATABASE_URL names a server.
 */
import { enforceDuplicateRules } from '../../server/platform/duplicates/match.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseSettings } from '../../server/bootstrap.ts';
import { profileNamed, type Principal } from '../../server/platform/core/principal.ts';
import { readRecord } from '../../server/platform/records/read.ts';
import { updateRecord } from '../../server/platform/records/update.ts';
import { createRecord } from '../../server/platform/records/write.ts';
import { databases } from '../support/server.ts';

const ADMIN: Principal = {
  userId: '0058d0000000001AAA',
  isGuest: false,
  profile: profileNamed('System Administrator'),
};
const quiet = {
  demoPasswords: { admin: 'restart-test-admin-password', standard: 'restart-test-user-password' },
  log: () => {},
};

async function admin(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql);
  await client.end();
}

describe.each(databases())('records across a restart on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  // Two openings of a new database, the first migrating it from nothing: 16 s on PostgreSQL on a quiet machine,
  // past the default 30 s when the machine is busy.
  it('keeps a created and updated record', async () => {
    let settings: DatabaseSettings;
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'records-restart-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      settings = { dataDir, demoContacts: 3 };
    } else {
      const base = process.env.TEST_DATABASE_URL!;
      const schema = `records_restart_${process.pid}_${Date.now().toString(36)}`;
      await admin(base, `CREATE SCHEMA ${schema}`);
      cleanups.push(() => admin(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`));
      const url = new URL(base);
      url.searchParams.set('options', `-c search_path=${schema}`);
      settings = { databaseUrl: url.toString(), dataDir: ':memory:', demoContacts: 3 };
    }
    const first = await openDatabase(settings, quiet);
    let id: string;
    try {
      const created = await createRecord(
        first,
        ADMIN,
        { apiName: 'Account', fields: { Name: 'Restart Electrical Supply', Phone: '555-0100' } },
        {
          beforeWrite: enforceDuplicateRules,
        },
      );
      id = created.id;
      await updateRecord(first, ADMIN, id, { fields: { Phone: '555-0199' } }, { beforeWrite: enforceDuplicateRules });
    } finally {
      await first.close();
    }
    const second = await openDatabase(settings, quiet);
    try {
      const record = await readRecord(second, ADMIN, id, {
        fields: ['Account.Name', 'Account.Phone', 'Account.CreatedById'],
      });
      expect(record.fields.Name.value).toBe('Restart Electrical Supply');
      expect(record.fields.Phone.value).toBe('555-0199');
      expect(record.fields.CreatedById.value).toBe(ADMIN.userId);
    } finally {
      await second.close();
    }
  }, 90_000);
});
