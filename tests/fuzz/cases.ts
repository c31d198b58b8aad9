/**
 * Requests derived from the contract for one operation: its example request (tests/support/examples.ts),
 * then that request broken one way at a time — path parameters replaced by attacks, query parameters of the
 * wrong type or holding text the database cannot store, body fields of the wrong type, missing or unknown,
 * NUL and lone surrogates in every string and key, malformed, oversized and deeply nested bodies, wrong
 * content types. Random choices come from a seeded PRNG, so a run is repeatable (FUZZ_SEED).
 *
 * fast-check is not installed (node_modules has no fast-check); the generators are plain code.
 */
import { contract, resolveRef, type Operation } from '../support/contract.ts';
import { exampleRequest, type ExampleRequest } from '../support/examples.ts';

type Json = Record<string, unknown>;

export interface FuzzCase {
  /** What was broken, for the report. */
  label: string;
  method: string;
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** mulberry32: a small deterministic PRNG. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\uD800b';

/** Path segment attacks, already percent-encoded (none is a bare dot segment, which the URL would resolve away). */
const PATH_ATTACKS: [string, string][] = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone surrogate (CESU bytes)', '%ED%A0%80'],
  ['invalid UTF-8', '%FF%FE'],
  ['traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['encoded slash', 'a%2Fb'],
  ['backslash traversal', '..%5C..%5Cwindows'],
  ['SQL', encodeURIComponent("' OR '1'='1")],
  ['long', 'a'.repeat(4000)],
  ['emoji', encodeURIComponent('😀')],
  ['commas', '%2C%2C%2C'],
  ['spaces', '%20%20'],
  ['percent', '%25'],
];

/** Query value attacks (encoded). */
const QUERY_ATTACKS: [string, string][] = [
  ['NUL', '%00'],
  ['lone surrogate (CESU bytes)', '%ED%A0%80'],
  ['invalid UTF-8', '%FF'],
  ['not a number', 'abc'],
  ['negative', '-1'],
  ['huge number', '99999999999999999999999'],
  ['overflowing float', '1e400'],
  ['empty', ''],
  ['long', 'x'.repeat(6000)],
  ['malformed JSON', '%7B%22a%22%3A'],
  ['JSON with NUL', encodeURIComponent(JSON.stringify({ a: NUL }))],
  ['JSON with surrogate', encodeURIComponent('{"a":"\\ud800"}')],
  // As much as an address holds (16 KiB): a JSON parameter (methodParams) deep or wide.
  ['JSON nested 2,000 deep', '%5B'.repeat(2_000) + '%5D'.repeat(2_000)],
  [
    'JSON object of 1,000 keys',
    encodeURIComponent(
      JSON.stringify(Object.fromEntries(Array.from({ length: 1_000 }, (_, index) => [index.toString(36), 0]))),
    ),
  ],
];

/** Values of the wrong type (or holding bad text) for a body field. */
const WRONG_VALUES: [string, unknown][] = [
  ['number', 12345],
  ['negative float', -1.5],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'two']],
  ['object', { nested: { deeper: 'x' } }],
  ['string', 'not what it wants'],
  ['empty string', ''],
  ['NUL', NUL],
  ['lone surrogate', LONE_SURROGATE],
  ['lone low surrogate', 'x\uDC00'],
  ['long string', 'y'.repeat(70_000)],
  ['nested 2000 deep', JSON.parse('['.repeat(2000) + ']'.repeat(2000)) as unknown],
];

function parametersOf(operation: Operation): { name: string; in: string; required?: boolean; schema?: Json }[] {
  const byKey = new Map<string, { name: string; in: string; required?: boolean; schema?: Json }>();
  for (const list of [operation.pathItem.parameters, operation.operation.parameters]) {
    for (const entry of (list ?? []) as unknown[]) {
      const parameter = resolveRef<{ name: string; in: string; required?: boolean; schema?: Json }>(contract, entry);
      byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

/** The example request, or a stand-in with every path parameter "x" when the contract gives no example. */
function baseRequest(operation: Operation): ExampleRequest {
  try {
    return exampleRequest(operation);
  } catch {
    return {
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      pathAndQuery: operation.path.replace(/\{[^}]+\}/g, 'x'),
      headers: {},
    };
  }
}

/** The path parameters' values in the example path. */
function pathValues(operation: Operation, path: string): Map<string, string> {
  const names: string[] = [];
  const pattern = operation.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{([^}]+)\\?\}/g, (_match, name: string) => {
      names.push(name);
      return '([^/]*)';
    });
  const match = new RegExp(`^${pattern}$`).exec(path);
  return new Map(names.map((name, index) => [name, match?.[index + 1] ?? 'x']));
}

function buildPath(operation: Operation, values: Map<string, string>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => values.get(name) ?? 'x');
}

/** Every path to a value inside a JSON document (objects' keys and array items), up to a limit. */
function leafPaths(value: unknown, limit = 40): (string | number)[][] {
  const found: (string | number)[][] = [];
  const visit = (node: unknown, path: (string | number)[]) => {
    if (found.length >= limit) return;
    if (path.length > 0) found.push(path);
    if (Array.isArray(node)) node.slice(0, 3).forEach((item, index) => visit(item, [...path, index]));
    else if (node && typeof node === 'object')
      for (const [key, item] of Object.entries(node)) visit(item, [...path, key]);
  };
  visit(value, []);
  return found;
}

function objectPaths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const visit = (node: unknown, path: (string | number)[]) => {
    if (Array.isArray(node)) node.slice(0, 2).forEach((item, index) => visit(item, [...path, index]));
    else if (node && typeof node === 'object') {
      found.push(path);
      for (const [key, item] of Object.entries(node)) visit(item, [...path, key]);
    }
  };
  visit(value, []);
  return found;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

function setAt(document: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = clone(document);
  let node = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

function deleteAt(document: unknown, path: (string | number)[]): unknown {
  const copy = clone(document);
  let node = copy as Record<string | number, unknown>;
  for (const segment of path.slice(0, -1)) node = node[segment] as Record<string | number, unknown>;
  if (Array.isArray(node)) node.splice(Number(path[path.length - 1]), 1);
  else delete node[path[path.length - 1]];
  return copy;
}

function getAt(document: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, segment) => (node as Record<string | number, unknown>)[segment], document);
}

const where = (path: (string | number)[]) => path.join('.') || '(root)';

/** The example body (an object) with count more keys beside its own, or an object of just those keys. */
function wideObject(example: unknown, count: number): string {
  const extra = Array.from({ length: count }, (_, index) => `"${index.toString(36)}":0`).join(',');
  const own =
    example && typeof example === 'object' && !Array.isArray(example) ? JSON.stringify(example).slice(1, -1) : '';
  return `{${own ? `${own},` : ''}${extra}}`;
}

/** Every request the fuzzer sends for an operation (for one caller; the runner sends each as guest and as administrator). */
export function fuzzCases(operation: Operation, random: () => number): FuzzCase[] {
  const base = baseRequest(operation);
  const [path, query = ''] = base.pathAndQuery.split('?', 2);
  const method = base.method;
  const baseHeaders = { ...base.headers };
  const jsonBody =
    base.mediaType && /json/i.test(base.mediaType) && typeof base.body === 'string'
      ? (JSON.parse(base.body) as unknown)
      : undefined;
  const withJson = (headers: Record<string, string> = {}) => ({
    ...baseHeaders,
    'Content-Type': 'application/json',
    ...headers,
  });
  const bodyHeaders = base.body !== undefined ? withJson() : baseHeaders;
  const cases: FuzzCase[] = [];
  const add = (label: string, pathAndQuery: string, headers: Record<string, string>, body?: string | Uint8Array) =>
    cases.push({ label, method, pathAndQuery, headers, body });
  const exampleBody = typeof base.body === 'string' ? base.body : undefined;
  const at = (p: string, q: string) => (q ? `${p}?${q}` : p);

  add('example request', base.pathAndQuery, bodyHeaders, exampleBody);

  // Path parameters: each replaced by every attack, the others left as in the example.
  const values = pathValues(operation, path);
  for (const name of values.keys()) {
    for (const [label, attack] of PATH_ATTACKS) {
      const changed = new Map(values).set(name, attack);
      add(`path ${name}: ${label}`, at(buildPath(operation, changed), query), bodyHeaders, exampleBody);
    }
  }

  // Query parameters: every declared one given each attack; an unknown one; one repeated.
  for (const parameter of parametersOf(operation).filter((candidate) => candidate.in === 'query')) {
    const others = query
      .split('&')
      .filter((pair) => pair && !pair.startsWith(`${encodeURIComponent(parameter.name)}=`));
    for (const [label, attack] of QUERY_ATTACKS) {
      add(
        `query ${parameter.name}: ${label}`,
        at(path, [...others, `${encodeURIComponent(parameter.name)}=${attack}`].join('&')),
        bodyHeaders,
        exampleBody,
      );
    }
    add(
      `query ${parameter.name}: repeated`,
      at(path, [...others, `${parameter.name}=a`, `${parameter.name}=b`].join('&')),
      bodyHeaders,
      exampleBody,
    );
  }
  add(
    'unknown query parameter with NUL',
    at(path, [query, 'zzUnknown=%00'].filter(Boolean).join('&')),
    bodyHeaders,
    exampleBody,
  );

  // Headers the operation reads, given bad text (a header cannot carry NUL: the HTTP parser refuses it).
  for (const parameter of parametersOf(operation).filter((candidate) => candidate.in === 'header')) {
    add(
      `header ${parameter.name}: garbage`,
      base.pathAndQuery,
      { ...bodyHeaders, [parameter.name]: '"\u00ff\u00fe"' },
      exampleBody,
    );
    add(
      `header ${parameter.name}: long`,
      base.pathAndQuery,
      { ...bodyHeaders, [parameter.name]: 'W/"' + 'z'.repeat(8000) + '"' },
      exampleBody,
    );
  }

  const operationBody = operation.operation.requestBody as Json | undefined;
  if (operationBody || method !== 'GET') {
    // Content types other than application/json (charset=utf-8).
    const sample = exampleBody ?? '{}';
    for (const type of [
      'text/plain',
      'application/vnd.evil+json',
      'application/json; charset=utf-16le',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
    ]) {
      add(`content type ${type}`, base.pathAndQuery, { ...baseHeaders, 'Content-Type': type }, sample);
    }
    add('no content type', base.pathAndQuery, baseHeaders, new TextEncoder().encode(sample));
    add('no body', base.pathAndQuery, baseHeaders);
    add(
      'content type application/json; charset=UTF-8',
      base.pathAndQuery,
      withJson({ 'Content-Type': 'application/json; charset=UTF-8' }),
      sample,
    );
    // Malformed and odd bodies.
    for (const [label, text] of [
      ['empty body', ''],
      ['truncated JSON', sample.slice(0, Math.max(1, Math.floor(sample.length / 2)))],
      ['JSON array', '[]'],
      ['JSON string', '"x"'],
      ['JSON null', 'null'],
      ['JSON number', '1e400'],
      ['NUL in raw JSON string', '{"a":"\\u0000"}'],
      ['nested 100000 deep', '['.repeat(100_000) + ']'.repeat(100_000)],
      ['duplicate keys', sample.replace(/^\{/, '{"apiName":"x",')],
    ] as const) {
      add(label, base.pathAndQuery, withJson(), text);
    }
    // Nested, wide and long as much as the body limit (1 MiB) allows: the sizes no pass over the input may be
    // slow on (each must be linear).
    add(
      'nested 100000 deep in a field',
      base.pathAndQuery,
      withJson(),
      `{"zzDeep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    );
    add('wide object (100,000 keys)', base.pathAndQuery, withJson(), wideObject(jsonBody, 100_000));
    add('string of 900,000 characters', base.pathAndQuery, withJson(), JSON.stringify({ zzLong: 'z'.repeat(900_000) }));
    // Bytes that are not UTF-8, inside a JSON string.
    add(
      'invalid UTF-8 bytes',
      base.pathAndQuery,
      withJson(),
      new Uint8Array([
        ...new TextEncoder().encode('{"a":"'),
        0xff,
        0xfe,
        0xc0,
        0xae,
        ...new TextEncoder().encode('"}'),
      ]),
    );
    // Over the body limit (1 MiB; the uploads take 14 MB and are sent one MiB and a bit, which they accept as size).
    add('oversized body (1.1 MB)', base.pathAndQuery, withJson(), JSON.stringify({ pad: 'p'.repeat(1_100_000) }));
  }

  if (jsonBody !== undefined) {
    const leaves = leafPaths(jsonBody);
    for (const leaf of leaves) {
      // Missing: each field taken out.
      add(`body ${where(leaf)}: missing`, base.pathAndQuery, withJson(), JSON.stringify(deleteAt(jsonBody, leaf)));
      // Wrong types: a few picked at random, and always NUL and a lone surrogate in strings.
      const picks = new Set<number>([8, 9]);
      while (picks.size < 5) picks.add(Math.floor(random() * WRONG_VALUES.length));
      for (const index of picks) {
        const [label, value] = WRONG_VALUES[index];
        add(
          `body ${where(leaf)}: ${label}`,
          base.pathAndQuery,
          withJson(),
          JSON.stringify(setAt(jsonBody, leaf, value)),
        );
      }
      const current = getAt(jsonBody, leaf);
      if (typeof current === 'string') {
        add(
          `body ${where(leaf)}: NUL appended`,
          base.pathAndQuery,
          withJson(),
          JSON.stringify(setAt(jsonBody, leaf, current + '\u0000')),
        );
        add(
          `body ${where(leaf)}: lone surrogate appended`,
          base.pathAndQuery,
          withJson(),
          JSON.stringify(setAt(jsonBody, leaf, current + '\uD83D')),
        );
      }
    }
    // Unknown fields, and keys holding bad text, at every object of the body.
    for (const objectPath of objectPaths(jsonBody)) {
      const target = getAt(jsonBody, objectPath) as Json;
      const extend = (extra: Json) =>
        objectPath.length ? setAt(jsonBody, objectPath, { ...target, ...extra }) : { ...target, ...extra };
      add(
        `body ${where(objectPath)}: unknown field`,
        base.pathAndQuery,
        withJson(),
        JSON.stringify(extend({ zzUnknown: 'x' })),
      );
      add(
        `body ${where(objectPath)}: key with NUL`,
        base.pathAndQuery,
        withJson(),
        JSON.stringify(extend({ ['k\u0000']: 'x' })),
      );
      add(
        `body ${where(objectPath)}: key with lone surrogate`,
        base.pathAndQuery,
        withJson(),
        JSON.stringify(extend({ ['k\uDFFF']: 'x' })),
      );
    }
  }
  return cases;
}

/** A request whose URL and headers are over Node's 16 KiB limit (the server answers 431). */
export function oversizedHeaderCase(operation: Operation): FuzzCase {
  const base = baseRequest(operation);
  return {
    label: 'headers over 16 KiB',
    method: base.method,
    pathAndQuery: base.pathAndQuery,
    headers: { 'X-Padding': 'h'.repeat(17_000) },
  };
}
