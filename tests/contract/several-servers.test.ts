/**
 * Several servers, one database: two server processes (node --import tsx site/main.ts) on one PostgreSQL
 * schema (TEST_DATABASE_URL). A record written through one is read through the other; the locator's cached
 * answer is emptied on both by a write through one, and so is a record the other answers from memory; a
 * session signed in on one works on the other; and the rate limits, counted in the database, are reached
 * across both together.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDS, CONTROLLER, UI_API, apexUrl, query, type RecordRep } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { makeId } from '../../server/platform/core/ids.ts';
import { waitFor } from '../support/raw-http.ts';
import { adminQuery, freePort, withSearchPath, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const PASSWORDS = {
  admin: `several-admin-${randomBytes(6).toString('hex')}`,
  standard: `several-user-${randomBytes(6).toString('hex')}`,
};
const ACCOUNT = makeId('001', 1);
/** Per address and minute, across both servers. */
const PUBLIC_LIMIT = 40;

interface Running {
  child: ChildProcess;
  output: () => string;
  server: TestServer;
}

async function startProcess(databaseUrl: string): Promise<Running> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_CONTACTS: '40',
    DATABASE_URL: databaseUrl,
    DEMO_ADMIN_PASSWORD: PASSWORDS.admin,
    DEMO_USER_PASSWORD: PASSWORDS.standard,
    PUBLIC_REQUESTS_PER_MINUTE: String(PUBLIC_LIMIT),
    SIGN_IN_ATTEMPTS_PER_WINDOW: '1000',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'site/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`The server did not start in time:\n${output}`)), 90_000);
    child.stdout!.on('data', () => {
      if (/Contact Us storefront on http:\/\//.test(output)) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      fail(new Error(`The server exited before it listened:\n${output}`));
    });
  });
  return {
    child,
    output: () => output,
    server: { baseUrl: `http://127.0.0.1:${port}`, passwords: PASSWORDS } as unknown as TestServer,
  };
}

describe.skipIf(!DATABASE_URL)(
  'two server processes on one PostgreSQL database (needs PostgreSQL: set TEST_DATABASE_URL)',
  () => {
    const schema = `several_${process.pid}_${randomBytes(4).toString('hex')}`;
    let one: Running;
    let two: Running;
    let admin: TestSession;

    beforeAll(async () => {
      await adminQuery(DATABASE_URL!, `CREATE SCHEMA ${schema}`);
      const url = withSearchPath(DATABASE_URL!, schema);
      // One after the other: the first seeds, the second finds the data there.
      one = await startProcess(url);
      two = await startProcess(url);
      admin = await signIn(one.server, 'admin');
    }, 200_000);

    afterAll(async () => {
      for (const running of [one, two]) {
        if (running && running.child.exitCode === null) {
          running.child.kill('SIGTERM');
          await new Promise((done) => running.child.once('exit', done));
        }
      }
      await adminQuery(DATABASE_URL!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });

    it('a session signed in on one server works on the other', async () => {
      const session = await callOperation<{ userId?: string }>(
        'getSession',
        `${two.server.baseUrl}/services/auth/session`,
        {
          headers: { Cookie: admin.cookie },
        },
      );
      expect(session.status).toBe(200);
      expect(JSON.stringify(session.body)).toContain(admin.userId);
    });

    it('a record written through one server is read through the other', async () => {
      const name = `Across ${randomBytes(3).toString('hex')}`;
      const created = await callOperation<RecordRep>('createRecord', `${one.server.baseUrl}${UI_API}/records`, {
        method: 'POST',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiName: 'Account', fields: { Name: name } }),
      });
      expect(created.status).toBe(201);
      const read = await callOperation<RecordRep>(
        'getRecord',
        `${two.server.baseUrl}${UI_API}/records/${created.body.id}?fields=Account.Name`,
        {
          headers: { ...admin.headers, Origin: two.server.baseUrl },
        },
      );
      expect(read.status).toBe(200);
      expect(read.body.fields.Name.value).toBe(name);
    });

    it('a record the other server answers from memory is answered anew once one server changed it', async () => {
      const url = `${two.server.baseUrl}${UI_API}/records/${ACCOUNT}?fields=Account.Name`;
      const read = async () =>
        (
          await callOperation<RecordRep>('getRecord', url, {
            headers: { ...admin.headers, Origin: two.server.baseUrl },
          })
        ).body;
      // The second answer comes from the replay stage of server two.
      const name = (await read()).fields.Name.value;
      expect((await read()).fields.Name.value).toBe(name);
      const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
      const updated = await callOperation('updateRecord', `${one.server.baseUrl}${UI_API}/records/${ACCOUNT}`, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: { Name: renamed } }),
      });
      expect(updated.status, updated.text).toBe(200);
      await waitFor(async () => (await read()).fields.Name.value === renamed);
    });

    it("a write through one server empties the locator's cached answer on both", async () => {
      const url = (running: Running) =>
        apexUrl(running.server.baseUrl, CONTROLLER, 'getContacts', query({ brands: BRANDS }));
      type Contacts = { contacts: { Id: string; APT_Company_Name__c?: string | null }[] };
      const before = await callOperation<Contacts>('getContacts', url(one));
      await callOperation<Contacts>('getContacts', url(two));
      const [contact] = before.body.contacts;
      const renamed = `Renamed ${randomBytes(3).toString('hex')}`;
      const updated = await callOperation('updateRecord', `${one.server.baseUrl}${UI_API}/records/${contact.Id}`, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ fields: { APT_Company_Name__c: renamed } }),
      });
      expect(updated.status, updated.text).toBe(200);
      for (const running of [one, two]) {
        const after = await callOperation<Contacts>('getContacts', url(running));
        expect(after.body.contacts.find((card) => card.Id === contact.Id)?.APT_Company_Name__c).toBe(renamed);
      }
    });

    it('counts the public rate limit across both servers', async () => {
      const url = (running: Running) => apexUrl(running.server.baseUrl, CONTROLLER, 'getDefaultContacts');
      // Earlier tests in this file counted a few requests already in this window: take the rest, alternating.
      const statuses: number[] = [];
      for (let index = 0; index < PUBLIC_LIMIT + 4; index++) {
        const response = await fetch(url(index % 2 ? two : one), { headers: { 'Cache-Control': 'no-cache' } });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      const firstRefused = statuses.indexOf(429);
      expect(firstRefused, `a 429 within the limit counted across both servers: ${statuses.join(' ')}`).toBeGreaterThan(
        0,
      );
      // Counted apart, each server would refuse only after PUBLIC_LIMIT of its own (about 2 × PUBLIC_LIMIT in all).
      // The replay stage answers cached GETs from a count read in the last second plus its own hits, so it
      // may let through the few requests the other server answered while its count was on the way.
      expect(firstRefused).toBeLessThanOrEqual(PUBLIC_LIMIT + 6);
      // Refused by both, once the shared count is over.
      expect(
        statuses.slice(firstRefused + 1).every((status) => status === 429),
        statuses.join(' '),
      ).toBe(true);
    });
  },
);
