/**
 * The server serves the whole contract and says honestly what it does not do: against the real server (PGlite
 * in memory), every operation outside app.implementedOperations answers its example request with exactly 501
 * and [{"errorCode":"NOT_IMPLEMENTED","message":"… <operationId>"}]; every operation in the set answers
 * something else, checked against the contract. The requests come from the contract's own examples
 * (tests/support/examples.ts), so an invalid example shows here as a 400 instead of the 501. Operations that
 * need a user are called as the signed-in administrator; a guest gets 401 on them before anything else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordApiCall } from '../support/api-calls.ts';
import { callOperation, contract, expectValidSchema, operationsOf } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { implementedOperationIds } from '../support/implemented.ts';
import { needsUser, signIn, type TestSession } from '../support/session.ts';

const operations = operationsOf(contract);
const implemented = implementedOperationIds();
const notImplemented = operations.filter(({ operationId }) => !implemented.has(operationId));
const served = operations.filter(({ operationId }) => implemented.has(operationId));

describe(`operations of the contract: ${operations.length}, implemented ${served.length}, not implemented ${notImplemented.length}`, () => {
  let server: TestServer;
  let admin: TestSession;
  const as = (operation: (typeof operations)[number]) => ({ headers: needsUser(operation) ? admin.headers : {} });

  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 20 });
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('the server reports the implemented set the tests computed, and only operations of the contract in it', () => {
    expect([...server.app.implementedOperations].sort()).toEqual([...implemented].sort());
    const ids = new Set(operations.map(({ operationId }) => operationId));
    expect(
      [...implemented].filter((id) => !ids.has(id)),
      'implemented operations the contract does not have',
    ).toEqual([]);
  });

  // Defined only while some operation is not implemented (an empty describe is an error in Vitest).
  if (notImplemented.length > 0)
    describe(`${notImplemented.length} operations not implemented answer 501 NOT_IMPLEMENTED naming the operation`, () => {
      it.each(notImplemented.map((operation) => [operation.operationId, operation] as const))(
        '%s',
        async (operationId, operation) => {
          const { url, init } = exampleFetch(server.baseUrl, operation, as(operation));
          const response = await fetch(url, init);
          const text = await response.text();
          recordApiCall({ operationId, method: operation.method, status: response.status, target: 'server' });
          expect(
            response.status,
            `${operation.method.toUpperCase()} ${operation.path} answered ${response.status}: ${text.slice(0, 300)}`,
          ).toBe(501);
          expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
          const body = JSON.parse(text) as unknown;
          expectValidSchema('ErrorList', body);
          expect(body).toEqual([
            { errorCode: 'NOT_IMPLEMENTED', message: expect.stringMatching(new RegExp(`\\b${operationId}\\b`)) },
          ]);
        },
      );
    });

  describe(`${served.length} implemented operations answer their example request with something other than 501`, () => {
    it.each(served.map((operation) => [operation.operationId, operation] as const))(
      '%s',
      async (operationId, operation) => {
        const { url, init } = exampleFetch(server.baseUrl, operation, as(operation));
        const { status, text } = await callOperation(operationId, url, init);
        expect(status, `${operation.method.toUpperCase()} ${operation.path}: ${text.slice(0, 300)}`).not.toBe(501);
      },
    );
  });

  const guestRefused = notImplemented.filter(needsUser);
  if (guestRefused.length > 0)
    describe(`${guestRefused.length} operations not implemented that need a user answer a guest 401 INVALID_SESSION_ID first`, () => {
      it.each(guestRefused.map((operation) => [operation.operationId, operation] as const))(
        '%s',
        async (operationId, operation) => {
          const { url, init } = exampleFetch(server.baseUrl, operation);
          const response = await fetch(url, init);
          recordApiCall({ operationId, method: operation.method, status: response.status, target: 'server' });
          expect(response.status).toBe(401);
          expect(await response.json()).toEqual([
            { errorCode: 'INVALID_SESSION_ID', message: 'Session expired or invalid' },
          ]);
        },
      );
    });
});
