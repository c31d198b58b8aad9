/**
 * The generator's JSON Schema → zod step (scripts/lib/json-schema-to-zod.ts): what each keyword the contract uses
 * becomes, run as zod; and, over the whole contract, that the generated route schemas accept every example the
 * contract gives for a response, as JSON Schema does.
 */
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import {
  emitSchema,
  referencedComponents,
  type EmitContext,
  type JsonSchema,
} from '../../scripts/lib/json-schema-to-zod.ts';
import { parseJsonText } from '../../generated/schemas.ts';
import { routes } from '../../generated/routes.ts';
import { contract, operationsOf, resolveRef } from '../support/contract.ts';

/** The zod schema the emitted source makes, with the names generated code has in scope. */
function compiled(
  schema: JsonSchema,
  ctx: Partial<EmitContext> = {},
  components: Record<string, z.ZodType> = {},
): z.ZodType {
  const source = emitSchema(schema, { defined: new Set(Object.keys(components)), ...ctx });
  const names = Object.keys(components);
  return new Function('z', 'parseJsonText', ...names, `return ${source};`)(
    z,
    parseJsonText,
    ...Object.values(components),
  ) as z.ZodType;
}

const accepts = (schema: z.ZodType, value: unknown) => schema.safeParse(value).success;

describe('emitSchema', () => {
  it('checks strings: length, pattern and the formats zod knows', () => {
    const code = compiled({ type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z]+$' });
    expect([
      accepts(code, 'ab'),
      accepts(code, 'abcd'),
      accepts(code, 'a'),
      accepts(code, 'abcde'),
      accepts(code, 'AB'),
      accepts(code, 12),
    ]).toEqual([true, true, false, false, false, false]);
    const dateTime = compiled({ type: 'string', format: 'date-time' });
    expect(accepts(dateTime, '2026-11-27T10:00:00.000Z')).toBe(true);
    expect(accepts(dateTime, 'yesterday')).toBe(false);
    // A format zod does not check is documentation only.
    expect(accepts(compiled({ type: 'string', format: 'byte' }), 'not base64 at all')).toBe(true);
  });

  it('checks numbers, and parses numbers and the words true and false from a parameter’s text', () => {
    const integer = compiled({ type: 'integer', minimum: 1, maximum: 10 });
    expect([
      accepts(integer, 1),
      accepts(integer, 10),
      accepts(integer, 0),
      accepts(integer, 1.5),
      accepts(integer, '5'),
    ]).toEqual([true, true, false, false, false]);
    const fromText = compiled({ type: 'integer', minimum: 1 }, { fromText: true });
    expect(fromText.parse('42')).toBe(42);
    expect(accepts(fromText, 'many')).toBe(false);
    const flag = compiled({ type: 'boolean' }, { fromText: true });
    expect([flag.parse('true'), flag.parse('false'), accepts(flag, 'yes'), accepts(flag, '1')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('makes objects: required and optional properties, defaults, closed, open and map-like ones', () => {
    const object = compiled({
      type: 'object',
      properties: { id: { type: 'string' }, size: { type: 'integer', default: 10 }, note: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(object.parse({ id: 'x' })).toEqual({ id: 'x', size: 10 });
    expect(accepts(object, {})).toBe(false);
    expect(accepts(object, { id: 'x', extra: 1 })).toBe(false);
    const open = compiled({ type: 'object', properties: { id: { type: 'string' } } });
    expect(open.parse({ id: 'x', extra: 1 })).toEqual({ id: 'x' });
    const typedExtras = compiled({
      type: 'object',
      properties: { id: { type: 'string' } },
      additionalProperties: { type: 'integer' },
    });
    expect(accepts(typedExtras, { id: 'x', count: 2 })).toBe(true);
    expect(accepts(typedExtras, { id: 'x', count: 'two' })).toBe(false);
    const map = compiled({ type: 'object', additionalProperties: { type: 'boolean' } });
    expect(accepts(map, { a: true, b: false })).toBe(true);
    expect(accepts(map, { a: 'yes' })).toBe(false);
  });

  it('makes arrays with their bounds, enums, constants and nullable types', () => {
    const list = compiled({ type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 2 });
    expect([accepts(list, ['a']), accepts(list, []), accepts(list, ['a', 'b', 'c']), accepts(list, [1])]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const choice = compiled({ enum: ['Full', 'Compact', null] });
    expect([accepts(choice, 'Full'), accepts(choice, null), accepts(choice, 'Other')]).toEqual([true, true, false]);
    const numbers = compiled({ enum: [1, 2] });
    expect([accepts(numbers, 2), accepts(numbers, 3)]).toEqual([true, false]);
    expect(accepts(compiled({ const: 400 }), 400)).toBe(true);
    expect(accepts(compiled({ const: 400 }), 404)).toBe(false);
    const nullable = compiled({ type: ['string', 'null'] });
    expect([accepts(nullable, 'a'), accepts(nullable, null), accepts(nullable, 1)]).toEqual([true, true, false]);
    const either = compiled({ type: ['string', 'integer'] });
    expect([accepts(either, 'a'), accepts(either, 1), accepts(either, null)]).toEqual([true, true, false]);
  });

  it('makes unions (discriminated where the contract says so, nullable by a null member) and intersections', () => {
    const cat = {
      type: 'object',
      properties: { kind: { const: 'cat' }, lives: { type: 'integer' } },
      required: ['kind', 'lives'],
    } satisfies JsonSchema;
    const dog = {
      type: 'object',
      properties: { kind: { const: 'dog' }, good: { type: 'boolean' } },
      required: ['kind', 'good'],
    } satisfies JsonSchema;
    const pet = compiled({ oneOf: [cat, dog], discriminator: { propertyName: 'kind' } });
    expect([
      accepts(pet, { kind: 'cat', lives: 9 }),
      accepts(pet, { kind: 'dog', good: true }),
      accepts(pet, { kind: 'dog', lives: 9 }),
    ]).toEqual([true, true, false]);
    const maybe = compiled({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    expect([accepts(maybe, 'a'), accepts(maybe, null), accepts(maybe, 1)]).toEqual([true, true, false]);
    const both = compiled({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    });
    expect([accepts(both, { a: 'x', b: 1 }), accepts(both, { a: 'x' })]).toEqual([true, false]);
  });

  it('names a component defined above, and reaches one defined later (a cycle) lazily', () => {
    expect(emitSchema({ $ref: '#/components/schemas/Node' }, { defined: new Set(['Node']) })).toBe('Node');
    expect(emitSchema({ $ref: '#/components/schemas/Node' }, { defined: new Set() })).toBe('z.lazy(() => Node)');
    const Leaf = z.object({ name: z.string() });
    const tree = compiled({ type: 'array', items: { $ref: '#/components/schemas/Leaf' } }, {}, { Leaf });
    expect(accepts(tree, [{ name: 'a' }])).toBe(true);
    expect(accepts(tree, [{ name: 1 }])).toBe(false);
    expect(() => emitSchema({ $ref: 'other.yaml#/Foo' }, { defined: new Set() })).toThrow(/Unsupported \$ref/);
  });

  it('parses a JSON document inside a text parameter and checks it against its own schema', () => {
    const methodParams = compiled(
      {
        type: 'string',
        maxLength: 100,
        contentMediaType: 'application/json',
        contentSchema: { type: 'object', properties: { country: { type: 'string' } }, additionalProperties: false },
      },
      { fromText: true },
    );
    expect(methodParams.parse('{"country":"Canada"}')).toEqual({ country: 'Canada' });
    expect(accepts(methodParams, '{"country":1}')).toBe(false);
    expect(accepts(methodParams, '{"country":')).toBe(false);
    expect(accepts(methodParams, `{"country":${'['.repeat(40)}${']'.repeat(40)}}`)).toBe(false);
  });

  it('keeps the description and the first example as OpenAPI metadata, and the default', () => {
    const source = emitSchema(
      { type: 'string', description: 'A name.', examples: ['Ada', 'Grace'], default: 'Ada' },
      { defined: new Set() },
    );
    expect(source).toBe('z.string().default("Ada").openapi({"description":"A name.","example":"Ada"})');
  });
});

describe('referencedComponents', () => {
  it('finds every component a schema refers to, through all its parts', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        a: { $ref: '#/components/schemas/A' },
        list: { type: 'array', items: { $ref: '#/components/schemas/B' } },
      },
      additionalProperties: {
        oneOf: [{ $ref: '#/components/schemas/C' }, { allOf: [{ $ref: '#/components/schemas/D' }] }],
      },
    };
    expect([...referencedComponents(schema)].sort()).toEqual(['A', 'B', 'C', 'D']);
  });
});

describe('the generated route schemas', () => {
  it('accept every example the contract gives for a JSON response', () => {
    const rejected: string[] = [];
    let checked = 0;
    for (const operation of operationsOf(contract)) {
      const route = (
        routes as Record<string, { responses: Record<string, { content?: Record<string, { schema?: z.ZodType }> }> }>
      )[operation.operationId];
      for (const [status, declared] of Object.entries(operation.operation.responses as Record<string, unknown>)) {
        const response = resolveRef<{ content?: Record<string, { examples?: Record<string, unknown> }> }>(
          contract,
          declared,
        );
        const schema = route.responses[status]?.content?.['application/json']?.schema;
        for (const [name, example] of Object.entries(response.content?.['application/json']?.examples ?? {})) {
          const { value } = resolveRef<{ value: unknown }>(contract, example);
          checked++;
          const result = schema?.safeParse(value);
          if (!result?.success)
            rejected.push(
              `${operation.operationId} ${status} ${name}: ${result?.error.issues[0]?.message ?? 'no schema'}`,
            );
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(rejected).toEqual([]);
  });
});
