/**
 * The rules every operation that takes a JSON body shares, derived from the contract and checked on every such
 * operation: a body the contract requires is required (absent, empty or whitespace is 400, before anything is
 * written); an optional body that is empty is no body; a body nested deeper than MAX_JSON_DEPTH is 400 before
 * anything parses it, and does not hold up other requests; a UTF-8 byte-order mark before the JSON is dropped
 * everywhere. Each answer is checked against the contract.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_DEPTH } from '../../common/json-nesting.ts';
import type { BlockedRequest } from '../../server/http/entry/event-loop-watch.ts';
import { BODY_REQUIRED_MESSAGE } from '../../server/http/operations/operation.ts';
import { APEX, CONTROLLER, UI_API } from '../support/api.ts';
import { callOperation, contract, operationsOf, resolveRef, type Operation } from '../support/contract.ts';
import { exampleRequest } from '../support/examples.ts';
import { databases, startTestServer, type TestServer } from '../support/server.ts';
import { signIn, type TestSession } from '../support/session.ts';

type Json = Record<string, unknown>;

/** The operations that take a JSON body, with whether the contract requires it. */
const JSON_BODY_OPERATIONS = operationsOf(contract).flatMap((operation) => {
  if (!operation.operation.requestBody) return [];
  const body = resolveRef<{ required?: boolean; content?: Json }>(contract, operation.operation.requestBody);
  return body.content?.['application/json'] ? [{ operation, required: body.required === true }] : [];
});
const REQUIRED = JSON_BODY_OPERATIONS.filter(({ required }) => required).map(({ operation }) => operation);
const OPTIONAL = JSON_BODY_OPERATIONS.filter(({ required }) => !required).map(({ operation }) => operation);

/** The message of an error body in either shape: the record API's list, or the Apex transport's object. */
function messageOf(body: unknown): string {
  return Array.isArray(body) ? String((body[0] as Json).message) : String((body as Json).errorMessage);
}

/** A JSON object whose one field holds arrays nested so that the whole body is depth levels deep. */
const nestedBody = (depth: number) => `{"deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

for (const kind of databases()) {
  describe(`request bodies on ${kind}`, () => {
    let server: TestServer;
    let admin: TestSession;
    const blocked: BlockedRequest[] = [];

    beforeAll(async () => {
      server = await startTestServer({
        database: kind,
        demoContacts: 30,
        app: { eventLoop: { onBlocked: (report) => blocked.push(report) } },
      });
      admin = await signIn(server, 'admin');
    });
    afterAll(() => server?.close());

    /** The operation's example request, as the administrator, with the body and Content-Type given (undefined: none). */
    const send = (
      operation: Operation,
      body: string | undefined,
      contentType: string | undefined = 'application/json',
    ) => {
      const example = exampleRequest(operation);
      const headers: Record<string, string> = { ...example.headers, ...admin.headers };
      delete headers['Content-Type'];
      if (contentType !== undefined) headers['Content-Type'] = contentType;
      return callOperation(operation.operationId, `${server.baseUrl}${example.pathAndQuery}`, {
        method: example.method,
        headers,
        body,
      });
    };

    it('has operations of both kinds to check', () => {
      expect(REQUIRED.length).toBeGreaterThanOrEqual(15);
      expect(OPTIONAL.map(({ operationId }) => operationId)).toContain('invokeApexImperative');
    });

    it.each(REQUIRED.map((operation) => [operation.operationId, operation] as const))(
      '%s refuses an absent, empty or blank body with 400, as its contract requires one',
      async (_operationId, operation) => {
        for (const [body, contentType] of [
          [undefined, undefined],
          [undefined, 'application/json'],
          ['', 'application/json'],
          [' \r\n\t', 'application/json; charset=utf-8'],
        ] as const) {
          const answer = await send(operation, body, contentType);
          expect(answer.status, `${JSON.stringify(body)} as ${contentType}`).toBe(400);
          expect(messageOf(answer.body)).toBe(BODY_REQUIRED_MESSAGE);
        }
        const notJson = await send(operation, 'name=value');
        expect(notJson.status).toBe(400);
        expect((await send(operation, '{}', 'text/plain')).status).toBe(415);
      },
    );

    it.each(OPTIONAL.map((operation) => [operation.operationId, operation] as const))(
      '%s takes an empty body as no body, whatever its Content-Type says',
      async (_operationId, operation) => {
        const absent = await send(operation, undefined, undefined);
        const empty = await send(operation, '', 'application/json');
        expect(absent.status).toBeLessThan(500);
        expect(empty.status).toBe(absent.status);
        expect(empty.body).toEqual(absent.body);
      },
    );

    it.each(JSON_BODY_OPERATIONS.map(({ operation }) => [operation.operationId, operation] as const))(
      '%s refuses a body nested deeper than the limit before reading it',
      async (_operationId, operation) => {
        const tooDeep = await send(operation, nestedBody(MAX_JSON_DEPTH + 1));
        expect(tooDeep.status).toBe(400);
        expect(messageOf(tooDeep.body)).toMatch(`deeper than ${MAX_JSON_DEPTH} levels`);
        const atTheLimit = await send(operation, nestedBody(MAX_JSON_DEPTH));
        // Refused, if at all, by what the body means, not by its depth.
        if (atTheLimit.status === 400) expect(messageOf(atTheLimit.body)).not.toMatch('deeper than');
      },
    );

    it('refuses the 200 KB body of 100,000 nested arrays at once, and answers a request sent with it meanwhile', async () => {
      // Inside an object, which the Apex transport's arguments are: every other pass would have walked it.
      const deep = `{"country":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      blocked.length = 0;
      const started = performance.now();
      const [refused, session] = await Promise.all([
        fetch(`${server.baseUrl}${APEX}/${CONTROLLER}/getContacts`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: deep,
        }).then(async (response) => ({
          status: response.status,
          body: (await response.json()) as Json,
          at: performance.now() - started,
        })),
        fetch(`${server.baseUrl}/services/auth/session`).then((response) => ({
          status: response.status,
          at: performance.now() - started,
        })),
      ]);
      console.log(
        `100,000 nested arrays: refused in ${refused.at.toFixed(1)} ms; the session read beside it answered in ${session.at.toFixed(1)} ms`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.errorMessage).toMatch(`deeper than ${MAX_JSON_DEPTH} levels`);
      expect(session.status).toBe(200);
      expect(blocked).toEqual([]);
    });

    it('holds a JSON query parameter (methodParams) to the same depth', async () => {
      const url = (depth: number) =>
        `${server.baseUrl}${APEX}/${CONTROLLER}/getContacts?methodParams=${encodeURIComponent(`{"country":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`)}`;
      const tooDeep = await callOperation('getContacts', url(MAX_JSON_DEPTH + 1));
      expect(tooDeep.status).toBe(400);
      expect(messageOf(tooDeep.body)).toMatch(`deeper than ${MAX_JSON_DEPTH} levels`);
      const atTheLimit = await callOperation('getContacts', url(MAX_JSON_DEPTH));
      expect(atTheLimit.status).toBe(400);
      expect(messageOf(atTheLimit.body)).not.toMatch('deeper than');
      // The generic GET form of the other server methods reads methodParams before it looks the method up.
      const cacheable = await callOperation(
        'invokeApexCacheable',
        url(MAX_JSON_DEPTH + 1).replace(`/${CONTROLLER}/getContacts?`, '/OtherController/anyMethod?'),
      );
      expect(cacheable.status).toBe(400);
      expect(messageOf(cacheable.body)).toMatch(`deeper than ${MAX_JSON_DEPTH} levels`);
    });

    it('reads a body of declared length at once, never through a web stream of the Node request', async () => {
      // Asking the Node adapter for request.body makes it build a web Request around Readable.toWeb(incoming), and
      // the body is then read through that stream: a tenth of the server's CPU for an update.
      const toWeb = vi.spyOn(Readable, 'toWeb');
      try {
        const preferences = `${server.baseUrl}${UI_API}/list-preferences/APT_Contact_Us__c/AllContactUs`;
        const columnWidths = { APT_Company_Name__c: 250 };
        const written = await callOperation('updateListPreferences', preferences, {
          method: 'PATCH',
          headers: { ...admin.headers, 'Content-Type': 'application/json' },
          body: JSON.stringify({ columnWidths }),
        });
        expect(written.status).toBe(200);
        expect((written.body as Json).columnWidths).toEqual(columnWidths);
        expect(toWeb).not.toHaveBeenCalled();
      } finally {
        toWeb.mockRestore();
      }
    });

    it('drops a UTF-8 byte-order mark before the JSON, on reads and writes alike', async () => {
      const preferences = `${server.baseUrl}${UI_API}/list-preferences/APT_Contact_Us__c/AllContactUs`;
      const columnWidths = { APT_Company_Name__c: 240 };
      const written = await callOperation('updateListPreferences', preferences, {
        method: 'PATCH',
        headers: { ...admin.headers, 'Content-Type': 'application/json' },
        body: `\uFEFF${JSON.stringify({ columnWidths })}`,
      });
      expect(written.status).toBe(200);
      expect((written.body as Json).columnWidths).toEqual(columnWidths);
      const contacts = await callOperation(
        'invokeApexImperative',
        `${server.baseUrl}${APEX}/${CONTROLLER}/getContacts`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: `\uFEFF${JSON.stringify({ country: 'Canada' })}`,
        },
      );
      expect(contacts.status).toBe(200);
      expect((contacts.body as { totalRecords: number }).totalRecords).toBeGreaterThan(0);
    });
  });
}
