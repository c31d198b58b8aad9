/**
 * All or nothing, per item (executeBatchRecordOperations): without allOrNone exactly the items reported
 * successful are committed; with it, nothing when any item fails; a request refused as a whole (text the
 * database cannot store) commits nothing; and an unexpected error half-way (the database failing on the second
 * write) rolls back what the request wrote before it, whichever allOrNone says.
 */
import { enforceDuplicateRules } from '../../server/platform/duplicates/match.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/connection.ts';
import { executeBatch } from '../../server/platform/records/batch.ts';
import { profileNamed, type Principal } from '../../server/platform/core/principal.ts';
import { UI_API } from '../support/api.ts';
import { callOperation } from '../support/contract.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { DEMO_USERS, signIn, type TestSession } from '../support/session.ts';

const account = (name: string) => ({ apiName: 'Account', fields: { Name: name } });

for (const kind of databases()) {
  describe(`batch writes commit exactly what they report, on ${kind}`, () => {
    let server: TestServer;
    let admin: TestSession;
    const tag = () => `Batch ${Math.random().toString(36).slice(2, 8)}`;
    const named = async (prefix: string) =>
      (
        await server.db.query<{ name: string }>(
          `SELECT fields ->> 'Name' AS name FROM record WHERE object_api_name = 'Account' AND fields ->> 'Name' LIKE $1 ORDER BY 1`,
          [`${prefix}%`],
        )
      ).rows.map(({ name }) => name);
    const batch = (body: unknown) =>
      callOperation<{ hasErrors: boolean; results: { statusCode: number }[] }>(
        'executeBatchRecordOperations',
        `${server.baseUrl}${UI_API}/records/batch`,
        {
          method: 'POST',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
      );

    beforeAll(async () => {
      server = await startTestServer({ database: kind, demoContacts: 0 });
      admin = await signIn(server, 'admin');
    });
    afterAll(() => server?.close());

    it('without allOrNone, commits exactly the items reported successful', async () => {
      const prefix = tag();
      const { status, body } = await batch({
        allOrNone: false,
        operations: [
          {
            type: 'Create',
            records: [account(`${prefix} 1`), { apiName: 'Account', fields: { Nope: 'x' } }, account(`${prefix} 3`)],
          },
        ],
      });
      expect(status).toBe(200);
      expect(body.results.map((result) => result.statusCode)).toEqual([201, 400, 201]);
      expect(await named(prefix)).toEqual([`${prefix} 1`, `${prefix} 3`]);
    });

    it('with allOrNone, commits nothing when an item fails', async () => {
      const prefix = tag();
      const { status, body } = await batch({
        allOrNone: true,
        operations: [
          { type: 'Create', records: [account(`${prefix} 1`), { apiName: 'Account', fields: { Nope: 'x' } }] },
        ],
      });
      expect(status).toBe(200);
      expect(body.hasErrors).toBe(true);
      expect(await named(prefix)).toEqual([]);
    });

    it('commits nothing of a request refused for text the database cannot store in its second item', async () => {
      const prefix = tag();
      for (const allOrNone of [false, true]) {
        const { status } = await batch({
          allOrNone,
          operations: [{ type: 'Create', records: [account(`${prefix} 1`), account(`${prefix} \u0000`)] }],
        });
        expect(status).toBe(400);
      }
      expect(await named(prefix)).toEqual([]);
    });

    it('rolls back what it wrote when the database fails unexpectedly on the second write', async () => {
      const prefix = tag();
      const principal: Principal = {
        userId: DEMO_USERS.admin.userId,
        isGuest: false,
        profile: profileNamed('System Administrator'),
      };
      // The same database, whose second INSERT INTO record inside a transaction fails as a defect would.
      let inserts = 0;
      const failing: Database = {
        ...server.db,
        transaction: (fn) =>
          server.db.transaction((tx) =>
            fn({
              query: (async (sql: string, params?: unknown[]) => {
                if (/^\s*INSERT INTO record\b/i.test(sql) && ++inserts === 2) throw new Error('injected failure');
                return tx.query(sql, params);
              }) as Queryable['query'],
            }),
          ),
      };
      for (const allOrNone of [false, true]) {
        inserts = 0;
        await expect(
          executeBatch(
            failing,
            principal,
            { allOrNone, operations: [{ type: 'Create', records: [account(`${prefix} 1`), account(`${prefix} 2`)] }] },
            { beforeWrite: enforceDuplicateRules },
          ),
        ).rejects.toThrow('injected failure');
      }
      expect(await named(prefix)).toEqual([]);
    });
  });
}
