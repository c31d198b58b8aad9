/**
 * The running server describes itself (its OpenAPI document, from the routes it registered): every
 * operation's signature must be the contract's, in both directions.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import type { Database } from '../../server/db/connection.ts';
import { contract } from '../support/contract.ts';
import { operationSignatures, signatureDifferences } from '../support/signature.ts';

type Json = Record<string, unknown>;

/** Building the app registers the routes without touching the database; any query would be a defect here. */
const noDatabase = new Proxy({} as Database, {
  get: (_target, property) => {
    if (property === 'then') return undefined;
    return () => {
      throw new Error(`the signature test does not open a database (called ${String(property)})`);
    };
  },
});

function serverDocument(): Json {
  const app = createApp(noDatabase);
  try {
    return app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'server', version: '1' } }) as unknown as Json;
  } catch (error) {
    const detail =
      error && typeof error === 'object' && 'data' in error
        ? ` ${JSON.stringify((error as { data: unknown }).data)}`
        : '';
    throw new Error(`The server cannot describe itself: ${(error as Error).message}${detail}`, { cause: error });
  }
}

describe('operation signatures: contract and server', () => {
  it('the server document has every operation of the contract, and no other, with the same signature', () => {
    const server = serverDocument();
    expect(operationSignatures(contract).size, 'the contract has operations').toBeGreaterThan(0);
    expect(signatureDifferences(contract, server)).toEqual([]);
  });
});

describe('the signature comparison itself', () => {
  type Mutation = [string, (doc: Json) => void, RegExp | null];
  const op = (doc: Json, path: string, method: string) =>
    (doc.paths as Record<string, Record<string, Json>>)[path][method];
  const CONTACTS = '/lwr/apex/v65.0/APT_ContactUsController/getContacts';
  const APEX = '/lwr/apex/v65.0/{apexClass}/{apexMethod}';
  const OBJECT_INFO = '/services/data/v65.0/ui-api/object-info/{objectApiName}';

  const mutations: Mutation[] = [
    ['no change', () => {}, null],
    [
      'a header name in another case',
      (doc) => {
        const parameters = doc.components as { parameters: Record<string, { name: string }> };
        parameters.parameters.IfNoneMatch.name = 'if-none-match';
      },
      null,
    ],
    [
      'an operation missing',
      (doc) => {
        delete (doc.paths as Json)[OBJECT_INFO];
      },
      /getObjectInfo: only in the contract/,
    ],
    [
      'an operation added',
      (doc) => {
        (doc.paths as Json)['/extra'] = { get: { operationId: 'getExtra', responses: { 200: { description: 'x' } } } };
      },
      /getExtra: only in the server/,
    ],
    [
      'an operation under another method',
      (doc) => {
        const paths = doc.paths as Record<string, Json>;
        paths[OBJECT_INFO].put = paths[OBJECT_INFO].get;
        delete paths[OBJECT_INFO].get;
      },
      /getObjectInfo: route GET .* PUT/,
    ],
    [
      'an operation under another path',
      (doc) => {
        const paths = doc.paths as Record<string, Json>;
        paths['/services/data/v66.0/ui-api/object-info/{objectApiName}'] = paths[OBJECT_INFO];
        delete paths[OBJECT_INFO];
      },
      /getObjectInfo: route .*v65.0.*v66.0/,
    ],
    [
      'an optional parameter made required',
      (doc) => {
        op(doc, CONTACTS, 'get').parameters = [
          { name: 'methodParams', in: 'query', required: true, schema: { type: 'string' } },
        ];
      },
      /getContacts: parameter query:methodParams:optional only in the contract/,
    ],
    [
      'a parameter renamed',
      (doc) => {
        (op(doc, APEX, 'post') as Json).parameters = [
          { name: 'apexclass', in: 'path', required: true, schema: { type: 'string' } },
        ];
        (doc.paths as Record<string, Json>)[APEX].parameters = [];
      },
      /invokeApexImperative: parameter path:apexClass:required only in the contract/,
    ],
    [
      'a parameter moved from query to header',
      (doc) => {
        op(doc, CONTACTS, 'get').parameters = [
          { name: 'methodParams', in: 'header', required: true, schema: { type: 'string' } },
        ];
      },
      /getContacts: parameter header:methodparams:required only in the server/,
    ],
    [
      'a status code added',
      (doc) => {
        (op(doc, OBJECT_INFO, 'get').responses as Json)['409'] = { description: 'conflict' };
      },
      /getObjectInfo: status 409 only in the server/,
    ],
    [
      'a status code removed',
      (doc) => {
        delete (op(doc, OBJECT_INFO, 'get').responses as Json)['304'];
      },
      /getObjectInfo: status 304 only in the contract/,
    ],
    [
      'a response media type changed',
      (doc) => {
        (op(doc, OBJECT_INFO, 'get').responses as Json)['200'] = {
          description: 'x',
          content: { 'text/plain': { schema: { type: 'string' } } },
        };
      },
      /getObjectInfo: 200 media types application\/json in the contract, text\/plain in the server/,
    ],
    [
      'a request media type changed',
      (doc) => {
        op(doc, APEX, 'post').requestBody = {
          required: false,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
        };
      },
      /invokeApexImperative: request media types application\/json in the contract/,
    ],
    [
      'a request body made required',
      (doc) => {
        op(doc, APEX, 'post').requestBody = {
          required: true,
          content: { 'application/json': { schema: { type: 'object' } } },
        };
      },
      /invokeApexImperative: request body optional in the contract, required in the server/,
    ],
  ];

  it.each(mutations)('%s', (_name, mutate, expected) => {
    const altered = structuredClone(contract);
    mutate(altered);
    const differences = signatureDifferences(contract, altered);
    if (expected === null) expect(differences).toEqual([]);
    else {
      expect(differences.length, differences.join('\n')).toBeGreaterThan(0);
      expect(differences.join('\n')).toMatch(expected);
      // And the other way round, the difference is seen from the other side.
      expect(signatureDifferences(altered, contract).length).toBe(differences.length);
    }
  });
});
