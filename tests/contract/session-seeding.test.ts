/**
 * The demo users at first start: passwords from the environment when given, otherwise generated and shown
 * once; a later start seeds and shows nothing. Sign-in works with whichever password was used.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/connection.ts';
import { openDatabase } from '../../server/bootstrap.ts';
import { authenticate, seedDemoUsers } from '../../server/platform/users.ts';
import { DEMO_USERS } from '../support/session.ts';

// Each test opens a new database: migrations and the places, 17 s on a quiet machine, past the default 30 s
// when it is busy.
describe('demo users', { timeout: 120_000 }, () => {
  let db: Database | undefined;
  const saved = { admin: process.env.DEMO_ADMIN_PASSWORD, standard: process.env.DEMO_USER_PASSWORD };
  afterEach(async () => {
    await db?.close();
    db = undefined;
    for (const [name, value] of [
      ['DEMO_ADMIN_PASSWORD', saved.admin],
      ['DEMO_USER_PASSWORD', saved.standard],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('generates the passwords not given, shows each once, and signs in with them', async () => {
    delete process.env.DEMO_ADMIN_PASSWORD;
    process.env.DEMO_USER_PASSWORD = 'a-standard-password-from-the-environment';
    const log: string[] = [];
    db = await openDatabase({ dataDir: ':memory:', demoContacts: 0 }, { log: (message) => log.push(message) });
    expect(log).toHaveLength(1);
    const [, password] = /^Demo user admin@northgate\.example created with the password (\S+) /.exec(log[0]) ?? [];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect((await authenticate(db, DEMO_USERS.admin.username, password))?.userId).toBe(DEMO_USERS.admin.userId);
    expect(
      (await authenticate(db, DEMO_USERS.standard.username, 'a-standard-password-from-the-environment'))?.principal
        .profile.name,
    ).toBe('Standard User');
    expect(await authenticate(db, DEMO_USERS.standard.username, password)).toBeNull();
    // A later start finds the users and neither seeds nor shows anything.
    expect(await seedDemoUsers(db, {})).toBeNull();
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM record WHERE object_api_name = 'User'`,
    );
    expect(rows[0].n).toBe(3);
  });

  it('shows nothing when the environment gives both passwords', async () => {
    process.env.DEMO_ADMIN_PASSWORD = 'an-admin-password-from-the-environment';
    process.env.DEMO_USER_PASSWORD = 'a-standard-password-from-the-environment';
    const log: string[] = [];
    db = await openDatabase({ dataDir: ':memory:', demoContacts: 0 }, { log: (message) => log.push(message) });
    expect(log).toEqual([]);
    expect(
      (await authenticate(db, 'Admin@Northgate.example', 'an-admin-password-from-the-environment'))?.principal.profile
        .name,
    ).toBe('System Administrator');
  });
});
