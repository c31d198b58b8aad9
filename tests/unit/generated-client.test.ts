/**
 * The generated client against the operation table: every operationId has a call, every read a query factory
 * keyed and timed by the contract, every write a mutation factory that invalidates what its x-invalidates
 * declares, and nothing else. The runtime under them: retries, conditional GETs, the key scheme.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import * as calls from '../../generated/client.ts';
import * as factories from '../../generated/queries.ts';
import { operationTable, type ContractOperation, type OperationId } from '../../generated/operations.ts';
import { conditionalGetMiddleware, createApiClient, isApiError, type ApiError } from '../../client/index.ts';
import { retryDelay } from '../../client/call.ts';
import { operationKey, staleAfter } from '../../client/query-keys.ts';

const operations = Object.entries(operationTable) as [OperationId, ContractOperation][];
const reads = operations.filter(([, operation]) => operation.read);
const writes = operations.filter(([, operation]) => !operation.read);
const factoryTable = factories as unknown as Record<string, (...args: unknown[]) => Record<string, unknown>>;
const api = createApiClient({ baseUrl: 'http://store.test', fetch: () => Promise.reject(new Error('no network')) });

describe('the generated client holds to the operation table', () => {
  it('has one call per operationId and nothing else', () => {
    expect(Object.keys(calls).sort()).toEqual(operations.map(([id]) => id).sort());
  });

  it('has a query factory for every read and a mutation factory for every write, and nothing else', () => {
    expect(Object.keys(factories).sort()).toEqual(
      [...reads.map(([id]) => `${id}Query`), ...writes.map(([id]) => `${id}Mutation`)].sort(),
    );
  });

  it.each(reads)(
    "%s: its query is keyed by operationId and parameters, fresh for the contract's x-cache-ttl",
    (id, row) => {
      const options = factoryTable[`${id}Query`](api, { path: { a: '1' }, query: { b: 2, c: undefined } });
      expect(options.queryKey).toEqual([id, { a: '1', b: 2 }]);
      expect(options.staleTime).toBe(row.cacheTtl ?? 0);
    },
  );

  it('marks as reads every GET and exactly the POSTs the contract marks x-read', () => {
    expect(
      reads
        .filter(([, row]) => row.method !== 'get')
        .map(([id]) => id)
        .sort(),
    ).toEqual(
      [
        'getDuplicates',
        'getRelatedListsActions',
        'getRelatedListActions',
        'getListRecordsByName',
        'getRelatedListRecordsBatch',
        'getRelatedListRecords',
        'getSearchResults',
        'getKeywordSearchResults',
        'getLookupRecords',
      ].sort(),
    );
  });
});

/** A write's input and answer that hold `value` wherever one of its rules looks. */
function writeHolding(rules: Exclude<ContractOperation['invalidates'], 'all'>, value: string) {
  const input: Record<string, Record<string, string>> = { path: {}, query: {}, body: {} };
  const response: Record<string, string> = {};
  for (const rule of rules)
    for (const source of Object.values(rule.match ?? {})) {
      const [place, name] = source.split('.');
      if (place === 'response') response[name] = value;
      else input[place][name] = value;
    }
  return { input, response };
}

describe('every write invalidates what its x-invalidates declares', () => {
  it.each(writes)('%s', async (id, row) => {
    const queryClient = new QueryClient();
    const seed = (key: readonly unknown[]) => queryClient.setQueryData(key, { seeded: true });
    const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated;
    // A read no write names stays valid, except after signing in or out.
    const untouched = ['getObjectInfo', { objectApiName: 'Account' }] as const;
    seed(untouched);
    const rules = row.invalidates === 'all' ? [] : row.invalidates;
    const matching: (readonly unknown[])[] = [];
    const other: (readonly unknown[])[] = [];
    for (const rule of rules) {
      const params = Object.keys(rule.match ?? {});
      matching.push([rule.operationId, Object.fromEntries(params.map((name) => [name, 'X1,X2']))]);
      if (params.length) other.push([rule.operationId, Object.fromEntries(params.map((name) => [name, 'Y9']))]);
    }
    for (const key of [...matching, ...other]) seed(key);
    const { input, response } = writeHolding(rules, 'X2');
    const options = factoryTable[`${id}Mutation`](api, queryClient) as {
      mutationKey: unknown;
      onSuccess: (response: unknown, input: unknown) => Promise<void>;
    };
    expect(options.mutationKey).toEqual([id]);
    await options.onSuccess(response, input);
    for (const key of matching) expect(invalidated(key), JSON.stringify(key)).toBe(true);
    // Another record's, list's or object's cached reads stay valid, unless a rule without a match names them too.
    for (const key of other) {
      const unmatchedRule = rules.some((rule) => rule.operationId === key[0] && !rule.match);
      expect(invalidated(key), JSON.stringify(key)).toBe(unmatchedRule);
    }
    expect(invalidated(untouched)).toBe(row.invalidates === 'all');
  });
});

describe('the key scheme and staleness', () => {
  it('puts path and query parameters and a body in one object, leaving out absent ones and headers', () => {
    expect(
      operationKey('getListRecordsByName', {
        path: { objectApiName: 'Account', listViewApiName: 'All' },
        query: { unused: undefined },
        header: { 'If-None-Match': '"x"' },
        body: { pageSize: 5 },
      }),
    ).toEqual(['getListRecordsByName', { objectApiName: 'Account', listViewApiName: 'All', body: { pageSize: 5 } }]);
  });

  it('matches comma-separated and listed values, and the whole operation when the write holds no value', () => {
    const write = operationTable.deleteRecord;
    const stale = staleAfter(write, { path: { recordId: 'B' } }, undefined);
    expect(stale(['getRecords', { recordIds: 'A,B' }])).toBe(true);
    expect(stale(['getRecords', { recordIds: ['A', 'B'] }])).toBe(true);
    expect(stale(['getRecords', { recordIds: 'A,C' }])).toBe(false);
    // A deleted record's object is not in its 204: every list of records is stale.
    expect(stale(['getListRecordsByApiName', { objectApiName: 'Anything', listViewApiName: 'All' }])).toBe(true);
    expect(stale(['getObjectInfo', { objectApiName: 'Account' }])).toBe(false);
  });
});

/** A fetch answering from a list of responses, recording each request. */
function scripted(...answers: (() => Response)[]) {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (request: Request) => {
      requests.push(request.clone());
      const next = answers.shift();
      if (!next) throw new Error('no more answers');
      return next();
    },
  };
}

const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
const limited = (retryAfter: string) =>
  json([{ errorCode: 'REQUEST_LIMIT_EXCEEDED', message: 'slow down' }], 429, { 'Retry-After': retryAfter });

describe('retries', () => {
  it('reads Retry-After in seconds or as a date, and waits 1 s, then 2 s, without one', () => {
    expect(retryDelay('3', 0)).toBe(3000);
    expect(retryDelay(new Date(10_000).toUTCString(), 0, 4_000)).toBe(6000);
    expect(retryDelay(null, 0)).toBe(1000);
    expect(retryDelay('soon', 1)).toBe(2000);
  });

  it('sends a read again after a 429 or 503, at most twice', async () => {
    const unavailable = json([{ errorCode: 'SERVER_UNAVAILABLE', message: 'busy' }], 503, { 'Retry-After': '0' });
    const server = scripted(limited('0'), unavailable, json({ isGuest: true }));
    const client = createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch });
    await expect(calls.getSession(client)).resolves.toEqual({ isGuest: true });
    expect(server.requests).toHaveLength(3);

    const stubborn = scripted(limited('0'), limited('0'), limited('0'), json({}));
    const again = createApiClient({ baseUrl: 'http://store.test', fetch: stubborn.fetch });
    const error = (await calls.getSession(again).catch((cause: unknown) => cause)) as ApiError;
    expect(isApiError(error) && error.status).toBe(429);
    expect(stubborn.requests).toHaveLength(3);
  });

  it('never waits over 10 s in all, and never sends a write twice', async () => {
    const server = scripted(limited('11'), json({}));
    const client = createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch });
    const started = Date.now();
    await expect(calls.getSession(client)).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);

    const writes = scripted(limited('0'), json({}));
    const writer = createApiClient({ baseUrl: 'http://store.test', fetch: writes.fetch });
    await expect(calls.signIn(writer, { body: { username: 'a', password: 'b' } })).rejects.toMatchObject({
      status: 429,
    });
    expect(writes.requests).toHaveLength(1);
  });

  it('stops waiting when the call is aborted', async () => {
    const server = scripted(limited('5'), json({}));
    const client = createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch });
    const controller = new AbortController();
    const call = calls.getSession(client, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException('stop', 'AbortError')), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('conditional GETs', () => {
  it('asks with the kept ETag and answers a 304 from the kept body, when asked to; a browser leaves it to its HTTP cache', async () => {
    const server = scripted(json({ n: 1 }, 200, { ETag: '"v1"' }), () => new Response(null, { status: 304 }));
    const client = createApiClient({
      baseUrl: 'http://store.test',
      fetch: server.fetch,
      middleware: [conditionalGetMiddleware()],
    });
    await expect(calls.getSession(client)).resolves.toEqual({ n: 1 });
    await expect(calls.getSession(client)).resolves.toEqual({ n: 1 });
    expect(server.requests.map((request) => request.headers.get('If-None-Match'))).toEqual([null, '"v1"']);

    const browser = scripted(json({ n: 1 }, 200, { ETag: '"v1"' }), json({ n: 2 }, 200, { ETag: '"v2"' }));
    const inBrowser = createApiClient({ baseUrl: 'http://store.test', fetch: browser.fetch });
    await calls.getSession(inBrowser);
    await expect(calls.getSession(inBrowser)).resolves.toEqual({ n: 2 });
    expect(browser.requests.map((request) => request.headers.get('If-None-Match'))).toEqual([null, null]);
  });

  it('calls the versioned paths at the API version asked for, and the others as they are', async () => {
    const server = scripted(json({}), json({}));
    const client = createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch, apiVersion: 'v55.0' });
    await calls.getObjectInfo(client, { path: { objectApiName: 'Account' } });
    await calls.getSession(client);
    expect(server.requests.map((request) => new URL(request.url).pathname)).toEqual([
      '/services/data/v55.0/ui-api/object-info/Account',
      '/services/auth/session',
    ]);
  });

  it('sends the session cookie to the same origin only', async () => {
    const server = scripted(json({}));
    await calls.getSession(createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch }));
    expect(server.requests[0].credentials).toBe('same-origin');
  });
});

describe('errors', () => {
  it('keeps a record-write error body as the contract declares it', async () => {
    const body = {
      enhancedErrorType: 'RecordError',
      message: 'Use one of these records?',
      output: { errors: [{ errorCode: 'DUPLICATES_DETECTED', message: 'dup' }], fieldErrors: {} },
    };
    const server = scripted(json({ csrfToken: 't' }), json(body, 400));
    const client = createApiClient({ baseUrl: 'http://store.test', fetch: server.fetch });
    const error = await calls
      .createRecord(client, { body: { apiName: 'Account', fields: {} } })
      .catch((cause: unknown) => cause as ApiError);
    expect(error).toMatchObject({ status: 400, body });
  });
});
