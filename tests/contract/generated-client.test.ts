/**
 * Every operation of the contract called once through the generated client (generated/client.ts), with its
 * example request, as a signed-in administrator: the call resolves with a 2xx the contract declares, or
 * rejects with an ApiError of a status the contract declares for the operation, and either body validates
 * against the contract. Reads go first, then the writes, and last the session's own (sign-out ends it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as calls from '../../generated/client.ts';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import { createApiClient, isApiError, type ApiClient } from '../../client/index.ts';
import { expectValidResponse } from '../support/contract.ts';
import { exampleInput } from '../support/examples.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { operationsInSessionOrder, signIn } from '../support/session.ts';

type AnyCall = (api: ApiClient, input: object) => Promise<unknown>;

describe.each(databases())('every operation through the generated client on %s', (kind) => {
  let server: TestServer;
  let api: ApiClient;
  /** The status of the last answer that was not the CSRF token's. */
  let lastStatus = 0;
  let lastType = '';
  let current: OperationId | undefined;
  const answered = new Map<string, number>();

  beforeAll(async () => {
    server = await startTestServer({ database: kind });
    const session = await signIn(server, 'admin');
    api = createApiClient({
      baseUrl: server.baseUrl,
      // Outside a browser, the session is a Cookie header; the client fetches the CSRF token with it.
      headers: { Cookie: session.cookie },
      fetch: async (request) => {
        const response = await fetch(request);
        // The token the client fetches before a write is not the write's answer.
        if (current === 'getCsrfToken' || !new URL(request.url).pathname.endsWith('/session/csrf')) {
          lastStatus = response.status;
          lastType = response.headers.get('Content-Type') ?? '';
        }
        return response;
      },
    });
  });
  afterAll(() => server?.close());

  it.each(operationsInSessionOrder)('%s', async (operationId) => {
    const call = calls[operationId] as unknown as AnyCall;
    const declared = operationTable[operationId].statuses as readonly number[];
    lastStatus = 0;
    current = operationId;
    try {
      const data = await call(api, exampleInput(operationId));
      expect(declared).toContain(lastStatus);
      expect(lastStatus).toBeGreaterThanOrEqual(200);
      expect(lastStatus).toBeLessThan(300);
      if (lastType.startsWith('application/json')) expectValidResponse(operationId, lastStatus, data);
      if (lastType.startsWith('image/')) expect(data).toBeInstanceOf(Blob);
    } catch (error) {
      if (!isApiError(error)) throw error;
      expect(declared, `${operationId} answered ${error.status}: ${error.message}`).toContain(error.status);
      expectValidResponse(operationId, error.status, error.body);
    }
    answered.set(operationId, lastStatus);
  });

  it('answered most example requests with a 2xx', () => {
    const succeeded = [...answered].filter(([, status]) => status >= 200 && status < 300);
    // The examples name records and list views of the demo data; a few name what the demo does not hold.
    console.log(`${kind}: ${succeeded.length} of ${answered.size} example requests answered 2xx`);
    expect(succeeded.length, JSON.stringify(Object.fromEntries(answered))).toBeGreaterThanOrEqual(100);
  });
});
