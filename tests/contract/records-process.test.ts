/**
 * Records written through the API survive a real restart of the server process (node --import tsx
 * site/main.ts): killed with SIGKILL, started again on the same PGlite data directory (or PostgreSQL
 * schema when TEST_DATABASE_URL names a server), the record reads back with the same eTag.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UI_API, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { adminQuery, databases, withSearchPath, type TestServer } from '../support/server.ts';
import { spawnSite } from '../support/site-process.ts';
import { signIn, type TestSession } from '../support/session.ts';

const PASSWORDS = {
  admin: `process-admin-${randomBytes(6).toString('hex')}`,
  standard: `process-user-${randomBytes(6).toString('hex')}`,
};

interface Running {
  child: ChildProcess;
  /** Looks like a TestServer to signIn: it needs only the base URL and the demo passwords. */
  server: TestServer;
  exited: Promise<NodeJS.Signals | null>;
}

/** Starts the server process; resolves once it says it listens, fails with its output if it exits first. */
async function startProcess(env: Record<string, string>): Promise<Running> {
  const site = await spawnSite(env.DATA_DIR, {
    DEMO_CONTACTS: '5',
    DEMO_ADMIN_PASSWORD: PASSWORDS.admin,
    DEMO_USER_PASSWORD: PASSWORDS.standard,
    ...env,
  });
  if (site.child.exitCode !== null) throw new Error(`The server exited before it listened:\n${site.output()}`);
  const server = { baseUrl: site.baseUrl, passwords: PASSWORDS } as unknown as TestServer;
  return { child: site.child, server, exited: site.exited.then(({ signal }) => signal) };
}

async function kill(running: Running): Promise<void> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
  expect(await running.exited).toBe('SIGKILL');
}

describe.each(databases())('records across a restart of the server process on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  const started: Running[] = [];
  afterAll(async () => {
    for (const running of started) {
      if (running.child.exitCode === null && running.child.signalCode === null) {
        running.child.kill('SIGKILL');
        await running.exited;
      }
    }
    for (const cleanup of cleanups) await cleanup();
  });

  /** The environment naming a fresh database: a temporary data directory or a new PostgreSQL schema. */
  async function freshDatabase(): Promise<Record<string, string>> {
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(join(tmpdir(), 'records-process-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      return { DATA_DIR: dataDir };
    }
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `records_process_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(base, `CREATE SCHEMA ${schema}`);
    cleanups.push(() => adminQuery(base, `DROP SCHEMA IF EXISTS ${schema} CASCADE`));
    return { DATABASE_URL: withSearchPath(base, schema), DATA_DIR: ':memory:' };
  }

  it(
    'keeps a record created and updated over HTTP after a SIGKILL, with the same eTag',
    { timeout: 180_000 },
    async () => {
      const env = await freshDatabase();
      const records = (server: TestServer, path = '') => `${server.baseUrl}${UI_API}/records${path}`;
      const fieldsParam = 'fields=Account.Name,Account.Phone,Account.Industry,Account.CreatedById';
      const write = async <T>(operationId: string, method: string, url: string, session: TestSession, body: unknown) =>
        callOperation<T>(operationId, url, {
          method,
          headers: { ...session.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });

      const first = await startProcess(env);
      started.push(first);
      const admin = await signIn(first.server, 'admin');
      const created = await write<RecordRep>('createRecord', 'POST', records(first.server), admin, {
        apiName: 'Account',
        fields: { Name: 'Restart Process Supply', Phone: '555-0101' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;
      const updated = await write<RecordRep>('updateRecord', 'PATCH', records(first.server, `/${id}`), admin, {
        fields: { Phone: '555-0188', Industry: 'Energy' },
      });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      const before = await callOperation<RecordRep>('getRecord', records(first.server, `/${id}?${fieldsParam}`), {
        headers: admin.headers,
      });
      expect(before.status).toBe(200);
      await kill(first);

      const second = await startProcess(env);
      started.push(second);
      const again = await signIn(second.server, 'admin');
      const after = await callOperation<RecordRep>('getRecord', records(second.server, `/${id}?${fieldsParam}`), {
        headers: again.headers,
      });
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      expect(after.body.fields.Name.value).toBe('Restart Process Supply');
      expect(after.body.fields.Phone.value).toBe('555-0188');
      expect(after.body.fields.Industry.value).toBe('Energy');
      expect(after.body.fields.CreatedById.value).toBe(admin.userId);
      expect(after.body.eTag).toBe(before.body.eTag);
      expect(after.body.weakEtag).toBe(updated.body.weakEtag);
      expect(after.headers.get('ETag')).toBe(`"${before.body.eTag}"`);

      // The session of the killed process is still valid: sessions live in the database, not the process.
      const withOldSession = await callOperation<RecordRep>(
        'getRecord',
        records(second.server, `/${id}?${fieldsParam}`),
        {
          headers: { ...admin.headers, Origin: second.server.baseUrl },
        },
      );
      expect(withOldSession.status).toBe(200);
      await kill(second);
    },
  );
});
