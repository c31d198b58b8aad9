/**
 * A list parameter sent empty (`optionalFields=`, `fields=`) is taken as absent, as the platform takes it: for
 * every optional query parameter the contract marks allowEmptyValue, each operation's example request answers
 * the same with the parameter empty as without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, operationsOf, resolveRef } from '../support/contract.ts';
import { exampleFetch } from '../support/examples.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Parameter = { name: string; in: string; allowEmptyValue?: boolean };

const cases = operationsOf(contract)
  .filter((operation) => operation.method === 'get')
  .flatMap((operation) =>
    [...((operation.pathItem.parameters ?? []) as unknown[]), ...((operation.operation.parameters ?? []) as unknown[])]
      .map((parameter) => resolveRef<Parameter>(contract, parameter))
      .filter((parameter) => parameter.in === 'query' && parameter.allowEmptyValue)
      .map((parameter) => [operation.operationId, parameter.name] as const),
  );

describe('an empty list parameter', () => {
  let server: TestServer;
  let admin: TestSession;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signIn(server, 'admin');
  });
  afterAll(() => server?.close());

  it('is marked on the list parameters of the record API', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(cases).toContainEqual(['getRecord', 'optionalFields']);
    expect(cases).toContainEqual(['getListUiByApiName', 'fields']);
  });

  it.each(cases)('%s: %s= answers as when it is left out', async (operationId, name) => {
    const { url, init } = exampleFetch(server.baseUrl, operationId, { headers: admin.headers });
    const absent = new URL(url);
    absent.searchParams.delete(name);
    const empty = new URL(absent);
    empty.searchParams.set(name, '');
    const [without, withEmpty] = await Promise.all([fetch(absent, init), fetch(empty, init)]);
    const [withoutBody, emptyBody] = await Promise.all([without.text(), withEmpty.text()]);
    expect(withEmpty.status, emptyBody).toBe(without.status);
    // The answers are the same, but for the URLs in them that repeat what was asked.
    const unlinked = (text: string) => text.replace(/"[^"]*\?[^"]*"/g, '"…"');
    expect(unlinked(emptyBody)).toBe(unlinked(withoutBody));
  });
});
