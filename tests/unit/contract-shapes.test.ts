/**
 * House rules of the contract that the linter does not check, over the bundle:
 * - no bare object anywhere (components and inline): an object schema says what it holds, through properties,
 *   a schema for additionalProperties (or patternProperties), a composition or a $ref. Only a value the
 *   platform itself leaves opaque may say `x-opaque: true`, with a description of what it is;
 * - every operation has one tag, a summary, a description and an operationId, and declares a 4xx;
 * - every parameter and every schema property has a description;
 * - every GET has x-cache-ttl;
 * - every 2xx JSON response and every request body has a named example.
 */
import { describe, expect, it } from 'vitest';
import { contract, HTTP_METHODS, operationsOf, resolveRef } from '../support/contract.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords whose value is one schema, a map of schemas, or a list of schemas (JSON Schema 2020-12). */
const ONE_SCHEMA = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
];
const SCHEMA_MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

interface Located {
  pointer: string;
  schema: Json | boolean;
}

/** Every schema of a schema tree, with its JSON pointer in the bundle. */
function schemasUnder(schema: Json | boolean, pointer: string, found: Located[] = []): Located[] {
  found.push({ pointer, schema });
  if (!isObject(schema)) return found;
  for (const keyword of ONE_SCHEMA) {
    const sub = schema[keyword];
    if (isObject(sub) || (typeof sub === 'boolean' && keyword === 'items'))
      schemasUnder(sub as Json | boolean, `${pointer}/${keyword}`, found);
  }
  for (const keyword of SCHEMA_MAP) {
    for (const [name, sub] of Object.entries(isObject(schema[keyword]) ? (schema[keyword] as Json) : {})) {
      if (isObject(sub) || typeof sub === 'boolean')
        schemasUnder(sub as Json | boolean, `${pointer}/${keyword}/${escapePointer(name)}`, found);
    }
  }
  for (const keyword of SCHEMA_LIST) {
    const list = schema[keyword];
    if (Array.isArray(list)) {
      for (const [index, sub] of list.entries())
        schemasUnder(sub as Json | boolean, `${pointer}/${keyword}/${index}`, found);
    }
  }
  return found;
}

/**
 * The roots of every schema tree of the bundle: the component schemas and each `schema` of a parameter,
 * header or media type, wherever it is (components, path items, operations). Example values are skipped:
 * they are data, and may hold a key named schema.
 */
function schemaRoots(): Located[] {
  const roots: Located[] = [];
  const components = (contract.components ?? {}) as Json;
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Json))
    roots.push({ pointer: `#/components/schemas/${escapePointer(name)}`, schema: schema as Json });
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${pointer}/${index}`);
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
      if (key === 'schema' && (isObject(value) || typeof value === 'boolean'))
        roots.push({ pointer: `${pointer}/schema`, schema: value as Json });
      else visit(value, `${pointer}/${escapePointer(key)}`);
    }
  };
  visit(contract.paths, '#/paths');
  for (const [section, value] of Object.entries(components))
    if (section !== 'schemas') visit(value, `#/components/${escapePointer(section)}`);
  return roots;
}

const allSchemas = schemaRoots().flatMap((root) => schemasUnder(root.schema, root.pointer));
const operations = operationsOf(contract);

const COMPOSITION = ['oneOf', 'anyOf', 'allOf', '$ref'];
/** Keywords that pin a value down without a type: such a schema is not a bare "anything". */
const CONSTRAINING = ['const', 'enum', 'not', 'if'];

function typesOf(schema: Json): string[] {
  return typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
}

/** Why a schema is a bare object (or an untyped anything), or null when it is not. */
function bareness(schema: Json | boolean): string | null {
  if (schema === false) return null;
  if (schema === true) return 'a `true` schema (anything)';
  if (COMPOSITION.some((keyword) => keyword in schema)) return null;
  const types = typesOf(schema);
  const structured =
    (isObject(schema.properties) && Object.keys(schema.properties).length > 0) ||
    isObject(schema.additionalProperties) ||
    (isObject(schema.patternProperties) && Object.keys(schema.patternProperties).length > 0);
  if (types.includes('object'))
    return structured ? null : 'type object with no properties, no additionalProperties schema and no composition';
  if (types.length > 0 || structured) return null;
  if (CONSTRAINING.some((keyword) => keyword in schema)) return null;
  return 'no type, no properties and no composition (any value)';
}

describe(`contract shapes: ${allSchemas.length} schemas, ${operations.length} operations`, () => {
  it('has no bare object: only an x-opaque schema with a description may leave its contents open', () => {
    const bare: string[] = [];
    for (const { pointer, schema } of allSchemas) {
      const why = bareness(schema);
      if (!why) continue;
      if (
        isObject(schema) &&
        schema['x-opaque'] === true &&
        typeof schema.description === 'string' &&
        schema.description.trim()
      )
        continue;
      const hint = isObject(schema) && schema['x-opaque'] === true ? ' (x-opaque needs a description)' : '';
      bare.push(`${pointer}: ${why}${hint}`);
    }
    expect(bare).toEqual([]);
  });

  it('gives every operation one tag, a summary, a description and an operationId', () => {
    const problems: string[] = [];
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const tags = operation.tags as unknown[] | undefined;
      if (!Array.isArray(tags) || tags.length !== 1) problems.push(`${where}: ${tags?.length ?? 0} tags, not one`);
      for (const field of ['summary', 'description', 'operationId']) {
        if (typeof operation[field] !== 'string' || !(operation[field] as string).trim())
          problems.push(`${where}: no ${field}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('declares at least one 4xx answer on every operation', () => {
    const without = operations.filter(
      ({ operation }) => !Object.keys(operation.responses as Json).some((status) => /^4(\d\d|XX)$/i.test(status)),
    );
    expect(without.map(({ operationId }) => operationId)).toEqual([]);
  });

  // 0 is for answers that must be asked for again every time (the session, its CSRF token).
  it('gives every GET an x-cache-ttl in milliseconds', () => {
    const problems = operations
      .filter(({ method }) => method === 'get')
      .filter(
        ({ operation }) => !Number.isInteger(operation['x-cache-ttl']) || (operation['x-cache-ttl'] as number) < 0,
      )
      .map(({ operationId, operation }) => `${operationId}: x-cache-ttl ${JSON.stringify(operation['x-cache-ttl'])}`);
    expect(problems).toEqual([]);
  });

  it('describes every parameter', () => {
    const problems: string[] = [];
    const check = (entries: unknown, where: string) => {
      for (const entry of (entries ?? []) as unknown[]) {
        const parameter = resolveRef<Json>(contract, entry);
        if (typeof parameter.description !== 'string' || !parameter.description.trim())
          problems.push(`${where}: ${String(parameter.in)} parameter ${String(parameter.name)}`);
      }
    };
    for (const [path, pathItem] of Object.entries(contract.paths as Record<string, Json>)) {
      check(pathItem.parameters, path);
      for (const method of HTTP_METHODS)
        if (isObject(pathItem[method]))
          check((pathItem[method] as Json).parameters, `${String((pathItem[method] as Json).operationId)}`);
    }
    for (const [name, parameter] of Object.entries(((contract.components as Json).parameters ?? {}) as Json))
      check([parameter], `#/components/parameters/${name}`);
    expect(problems).toEqual([]);
  });

  it('describes every property of every schema (on the property, or on the schema it refers to)', () => {
    const problems: string[] = [];
    const described = (schema: unknown): boolean => {
      if (!isObject(schema)) return false;
      if (typeof schema.description === 'string' && schema.description.trim()) return true;
      return typeof schema.$ref === 'string' && described(resolveRef(contract, schema));
    };
    for (const { pointer, schema } of allSchemas) {
      if (!isObject(schema) || !isObject(schema.properties)) continue;
      for (const [name, property] of Object.entries(schema.properties))
        if (!described(property)) problems.push(`${pointer}/properties/${escapePointer(name)}`);
    }
    expect(problems).toEqual([]);
  });

  it('has a named example for every 2xx JSON response and every request body', () => {
    const problems: string[] = [];
    const hasNamedExample = (media: Json) => isObject(media.examples) && Object.keys(media.examples).length > 0;
    for (const { operationId, operation } of operations) {
      for (const [status, entry] of Object.entries(operation.responses as Json)) {
        if (!/^2/.test(status)) continue;
        const content = (resolveRef<Json>(contract, entry).content ?? {}) as Record<string, Json>;
        for (const [mediaType, media] of Object.entries(content)) {
          if (/^application\/(?:[\w.+-]+\+)?json$/i.test(mediaType) && !hasNamedExample(media))
            problems.push(`${operationId} ${status} ${mediaType}: no named example`);
        }
      }
      if (operation.requestBody) {
        const content = (resolveRef<Json>(contract, operation.requestBody).content ?? {}) as Record<string, Json>;
        if (Object.keys(content).length === 0) problems.push(`${operationId} request body: no media type`);
        for (const [mediaType, media] of Object.entries(content))
          if (!hasNamedExample(media)) problems.push(`${operationId} request body ${mediaType}: no named example`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the bare-object rule itself catches what it must and lets the rest through', () => {
    expect(bareness({ type: 'object' })).not.toBeNull();
    expect(bareness({ type: ['object', 'null'], properties: {} })).not.toBeNull();
    expect(bareness({ description: 'anything' })).not.toBeNull();
    expect(bareness({ type: 'object', additionalProperties: true })).not.toBeNull();
    expect(bareness(true)).not.toBeNull();
    expect(bareness({ type: 'object', properties: { a: { type: 'string' } } })).toBeNull();
    expect(bareness({ type: 'object', additionalProperties: { type: 'string' } })).toBeNull();
    expect(bareness({ $ref: '#/components/schemas/X' })).toBeNull();
    expect(bareness({ oneOf: [{ type: 'string' }, { type: 'null' }] })).toBeNull();
    expect(bareness({ type: ['string', 'null'] })).toBeNull();
    expect(bareness({ enum: ['a', 'b'] })).toBeNull();
    const nested = schemasUnder(
      { type: 'object', properties: { a: { type: 'array', items: { type: 'object' } } } },
      '#',
    );
    expect(nested.map(({ pointer }) => pointer)).toEqual(['#', '#/properties/a', '#/properties/a/items']);
  });
});
