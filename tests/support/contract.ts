/**
 * The contract as a test oracle: every answer of the server is checked against the bundled OpenAPI
 * document (generated/openapi.json) with a JSON Schema 2020-12 validator.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { recordApiCall, recordSentProperties, testFileName, type CallTarget } from './api-calls.ts';
import { observeAnswer } from './sent-properties.ts';

const root = resolve(import.meta.dirname, '../..');
export const CONTRACT_PATH = resolve(root, 'generated/openapi.json');
const CONTRACT_ID = 'https://contract.test/openapi.json';

type Json = Record<string, unknown>;
export interface Operation {
  operationId: string;
  method: string;
  path: string;
  /** JSON pointer of the operation object in the bundle. */
  pointer: string;
  operation: Json;
  pathItem: Json;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export function loadContract(path = CONTRACT_PATH): Json {
  return JSON.parse(readFileSync(path, 'utf8')) as Json;
}

export const contract = loadContract();

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The node at a local JSON pointer (#/...) of the document. */
export function resolvePointer<T = Json>(doc: Json, pointer: string): T {
  if (!pointer.startsWith('#/')) throw new Error(`Only local pointers are supported: ${pointer}`);
  return pointer
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Json>((value, segment) => {
      const next = value?.[segment];
      if (next === undefined) throw new Error(`Unresolvable pointer ${pointer}`);
      return next as Json;
    }, doc) as T;
}

/** Resolves a local $ref (#/...) of the document, following chains of refs. */
export function resolveRef<T = Json>(doc: Json, node: unknown): T {
  let current = node as Json;
  for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${String(current.$ref)}`);
    current = resolvePointer(doc, current.$ref as string);
  }
  return current as T;
}

/** Every operation of a document, with its method, path and pointer. */
export function operationsOf(doc: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, pathItem] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as Json | undefined;
      if (!operation) continue;
      operations.push({
        operationId: String(operation.operationId),
        method,
        path,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
        operation,
        pathItem,
      });
    }
  }
  return operations;
}

const byOperationId = new Map(operationsOf(contract).map((operation) => [operation.operationId, operation]));

export function contractOperation(operationId: string): Operation {
  const operation = byOperationId.get(operationId);
  if (!operation) throw new Error(`The contract has no operation ${operationId}`);
  return operation;
}

const COMPONENT_SCHEMAS = '#/components/schemas/';

/** A copy of a schema whose refs to the contract's component schemas point into the schema store. */
function absoluteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absoluteRefs);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => {
      if (key !== '$ref' || typeof value !== 'string') return [key, absoluteRefs(value)];
      if (!value.startsWith(COMPONENT_SCHEMAS)) throw new Error(`Unexpected $ref in a schema: ${value}`);
      return [key, `${CONTRACT_ID}#/$defs/${value.slice(COMPONENT_SCHEMAS.length)}`];
    }),
  );
}

/** Every x-* key used anywhere under a node (schema extensions, for Ajv's strict mode). */
function extensionKeywords(node: unknown, found = new Set<string>()): string[] {
  if (Array.isArray(node)) {
    for (const item of node) extensionKeywords(item, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return [...found].sort();
}

function createAjv(): Ajv2020 {
  // Strict mode stays on, so that a typo in a schema keyword is an error rather than a schema that accepts
  // everything; the OpenAPI keywords that are not JSON Schema are declared as annotations instead.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
  addFormats(ajv);
  // discriminator only names the property that the oneOf branches already pin with const: the oneOf
  // itself is validated. example/xml/externalDocs are annotations.
  ajv.addVocabulary(['discriminator', 'example', 'xml', 'externalDocs']);
  // Extensions on schemas (x-opaque ...) are annotations too.
  const extensions = extensionKeywords(contract.components);
  if (extensions.length > 0) ajv.addVocabulary(extensions);
  // The bundle is not itself a schema (openapi, info, paths ...): its component schemas become the $defs
  // of one schema document, checked against the 2020-12 meta-schema.
  const schemas = (contract.components as Json).schemas as Json;
  ajv.addSchema({ $id: CONTRACT_ID, $defs: absoluteRefs(schemas) } as Json);
  return ajv;
}

export const ajv = createAjv();
const validators = new Map<string, ValidateFunction>();

/** The validator of the schema at a pointer of the bundle (#/components/schemas/X, #/paths/...). */
export function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile(absoluteRefs(resolvePointer(contract, pointer)) as Json);
    validators.set(pointer, validate);
  }
  return validate;
}

function describeErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 20)
    .map(
      (error) =>
        `  ${error.instancePath || '(root)'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''} [${error.schemaPath}]`,
    )
    .join('\n');
}

/** Asserts the value validates against a component schema of the contract, by name. */
export function expectValidSchema(schemaName: string, value: unknown): void {
  const schemas = (contract.components as Json).schemas as Json;
  if (!schemas[schemaName]) throw new Error(`The contract has no schema ${schemaName}`);
  const validate = validatorAt(`${COMPONENT_SCHEMAS}${escapePointer(schemaName)}`);
  if (!validate(value)) {
    expect.fail(
      `Value does not match schema ${schemaName}:\n${describeErrors(validate)}\nValue: ${JSON.stringify(value).slice(0, 500)}`,
    );
  }
}

/** The response object (refs to components/responses resolved) the contract declares for a status. */
export function contractResponse(operationId: string, status: number): { response: Json; pointer: string } {
  const { operation, pointer } = contractOperation(operationId);
  const responses = operation.responses as Record<string, unknown>;
  const key =
    String(status) in responses
      ? String(status)
      : `${String(status)[0]}XX` in responses
        ? `${String(status)[0]}XX`
        : 'default';
  const declared = responses[key] as Json | undefined;
  if (!declared)
    expect.fail(`${operationId} does not declare status ${status} (declares ${Object.keys(responses).join(', ')})`);
  const ref = typeof declared.$ref === 'string' ? declared.$ref : undefined;
  return { response: resolveRef(contract, declared), pointer: ref ?? `${pointer}/responses/${key}` };
}

/** The pointer of the application/json schema the contract declares for the operation and status. */
function responseSchemaPointer(operationId: string, status: number): string {
  const { response, pointer } = contractResponse(operationId, status);
  const media = (response.content as Json | undefined)?.['application/json'] as Json | undefined;
  if (!media?.schema) expect.fail(`${operationId} ${status} declares no application/json schema`);
  return `${pointer}/content/application~1json/schema`;
}

/**
 * Records which declared properties a valid JSON answer of the server carries, per object schema (for
 * tests/contract/sent-properties.test.ts).
 */
function recordAnswer(operationId: string, status: number, body: unknown): void {
  const objects = observeAnswer(contract, responseSchemaPointer(operationId, status), body, (pointer, value) =>
    validatorAt(pointer)(value),
  );
  const file = testFileName(expect.getState().testPath ?? '(unknown)');
  recordSentProperties({ kind: 'answer', file, operationId, status, objects });
}

/**
 * Asserts the body is what the contract declares for the operation and status, as application/json:
 * the status must be declared and the body must validate against its schema.
 */
export function expectValidResponse(operationId: string, status: number, body: unknown): void {
  const schemaPointer = responseSchemaPointer(operationId, status);
  const validate = validatorAt(schemaPointer);
  if (!validate(body)) {
    expect.fail(
      `${operationId} ${status} body does not match the contract:\n${describeErrors(validate)}\nBody: ${JSON.stringify(body).slice(0, 500)}`,
    );
  }
  if (typeof body === 'string') expectValidEmbeddedJson(`${operationId} ${status}`, schemaPointer, body);
}

/**
 * JSON Schema leaves contentMediaType/contentSchema as annotations: a string declared as a JSON text of a
 * schema is parsed and checked here. With anyOf/oneOf, the string branch that declares a content schema.
 */
function expectValidEmbeddedJson(what: string, schemaPointer: string, text: string): void {
  const candidates: string[] = [];
  const visit = (pointer: string, depth: number) => {
    let node = resolvePointer<Json>(contract, pointer);
    while (typeof node.$ref === 'string') {
      pointer = node.$ref;
      node = resolvePointer<Json>(contract, pointer);
    }
    if (node.contentMediaType === 'application/json' && node.contentSchema) candidates.push(`${pointer}/contentSchema`);
    if (depth > 0) return;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      for (const index of ((node[keyword] as unknown[] | undefined) ?? []).keys())
        visit(`${pointer}/${keyword}/${index}`, depth + 1);
    }
  };
  visit(schemaPointer, 0);
  if (candidates.length === 0) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    expect.fail(`${what}: the string is declared as JSON but does not parse: ${text.slice(0, 200)}`);
  }
  const failures = candidates.map((pointer) => validatorAt(pointer)).filter((validate) => !validate(parsed));
  if (failures.length === candidates.length) {
    expect.fail(`${what}: the JSON text does not match its contentSchema:\n${describeErrors(failures[0])}`);
  }
}

/** Asserts every response header the contract declares for the status is present (ETag, Cache-Control ...). */
export function expectContractHeaders(operationId: string, status: number, headers: Headers): void {
  const { response } = contractResponse(operationId, status);
  const declared = Object.keys((response.headers ?? {}) as Json);
  const missing = declared.filter((name) => !headers.has(name));
  expect(missing, `${operationId} ${status} lacks the headers the contract declares`).toEqual([]);
}

export interface CheckedResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

const isJsonMediaType = (type: string) => /^application\/(?:[\w.+-]+\+)?json$/i.test(type);

/** Whether a Content-Type header is one of the media types declared (wildcards such as image/* included). */
function matchesMediaType(contentType: string, declared: string): boolean {
  const actual = contentType.split(';')[0].trim().toLowerCase();
  const [type, subtype] = declared.toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

export interface CallOptions {
  /** Which implementation answers, for the call log (tests/support/api-calls.ts); default 'server'. */
  target?: CallTarget;
}

/**
 * Calls the server, then checks the answer against the contract: the status is declared, a JSON body
 * validates, a body of another declared media type (an image) has one of the declared content types,
 * declared headers are present. Returns the parsed body (undefined for a non-JSON body: see text).
 * Every call is logged for the API coverage report (npm run coverage:api), and the properties of the
 * server's JSON answers for the comparison of what it sends with what the contract requires.
 */
export async function callOperation<T = unknown>(
  operationId: string,
  url: string,
  init?: RequestInit,
  options: CallOptions = {},
): Promise<CheckedResponse<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  recordApiCall({
    operationId,
    method: init?.method ?? 'GET',
    status: response.status,
    target: options.target ?? 'server',
  });
  const { response: declared } = contractResponse(operationId, response.status);
  let body: unknown;
  const mediaTypes = Object.keys((declared.content ?? {}) as Json);
  const contentType = response.headers.get('content-type') ?? '';
  const onlyJson = mediaTypes.every(isJsonMediaType);
  const answeredJson = mediaTypes.some(isJsonMediaType) && isJsonMediaType(contentType.split(';')[0].trim());
  if (mediaTypes.length > 0 && (onlyJson || answeredJson)) {
    expect(contentType, `${operationId} ${response.status} content type`).toMatch(/^application\/json\b/);
    body = JSON.parse(text);
    expectValidResponse(operationId, response.status, body);
    if ((options.target ?? 'server') === 'server') recordAnswer(operationId, response.status, body);
  } else if (mediaTypes.length > 0) {
    expect(
      mediaTypes.some((type) => matchesMediaType(contentType, type)),
      `${operationId} ${response.status} content type ${contentType || '(none)'} is not one of ${mediaTypes.join(', ')}`,
    ).toBe(true);
  } else {
    expect(text, `${operationId} ${response.status} must have no body`).toBe('');
  }
  expectContractHeaders(operationId, response.status, response.headers);
  return { status: response.status, headers: response.headers, body: body as T, text };
}
