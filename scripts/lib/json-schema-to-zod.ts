/**
 * Emits zod (v4, through @hono/zod-openapi) source code for the JSON Schema 2020-12 subset the contract
 * uses. Component references become the names of the generated component constants; a reference that
 * closes a cycle becomes z.lazy so that the module can be evaluated top to bottom.
 */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  discriminator?: { propertyName: string };
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  examples?: unknown[];
  contentMediaType?: string;
  contentSchema?: JsonSchema;
};

const COMPONENT_REF = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/;

export function refName(ref: string): string {
  const match = COMPONENT_REF.exec(ref);
  if (!match) throw new Error(`Unsupported $ref: ${ref}`);
  return match[1];
}

/** Names of the components a schema refers to, directly or through its parts. */
export function referencedComponents(schema: JsonSchema, found = new Set<string>()): Set<string> {
  if (schema.$ref) found.add(refName(schema.$ref));
  for (const part of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) {
    referencedComponents(part, found);
  }
  for (const property of Object.values(schema.properties ?? {})) referencedComponents(property, found);
  if (schema.items) referencedComponents(schema.items, found);
  if (typeof schema.additionalProperties === 'object') referencedComponents(schema.additionalProperties, found);
  return found;
}

export interface EmitContext {
  /** Components already emitted above the current one: referenced directly. Others: through z.lazy. */
  defined: Set<string>;
  /**
   * The value arrives as text (a query, path or header parameter): numbers are parsed from it, and booleans
   * are the words true and false.
   */
  fromText?: boolean;
}

const literal = (value: unknown) => JSON.stringify(value);

function types(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function isNullSchema(schema: JsonSchema): boolean {
  return (
    schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null')
  );
}

function emitRef(ref: string, ctx: EmitContext): string {
  const name = refName(ref);
  return ctx.defined.has(name) ? name : `z.lazy(() => ${name})`;
}

/** zod's own checks for the string formats the contract uses; other formats are documentation only. */
const STRING_FORMATS: Record<string, string> = {
  'date-time': 'z.iso.datetime({ offset: true })',
  date: 'z.iso.date()',
  email: 'z.email()',
  uri: 'z.url()',
  uuid: 'z.uuid()',
};

function emitString(schema: JsonSchema, ctx: EmitContext): string {
  let code = (schema.format && STRING_FORMATS[schema.format]) || 'z.string()';
  if (schema.minLength !== undefined) code += `.min(${schema.minLength})`;
  if (schema.maxLength !== undefined) code += `.max(${schema.maxLength})`;
  if (schema.pattern !== undefined) code += `.regex(new RegExp(${literal(schema.pattern)}))`;
  // A JSON document inside a text parameter (contentSchema): parsed, then checked against its own schema.
  if (ctx.fromText && schema.contentMediaType === 'application/json' && schema.contentSchema) {
    code += `.transform(parseJsonText).pipe(${emitSchema(schema.contentSchema, { ...ctx, fromText: false })})`;
  }
  return code;
}

function emitNumber(schema: JsonSchema, integer: boolean, fromText = false): string {
  const number = fromText ? 'z.coerce.number()' : 'z.number()';
  let code = integer ? `${number}.int()` : number;
  if (schema.minimum !== undefined) code += `.min(${schema.minimum})`;
  if (schema.maximum !== undefined) code += `.max(${schema.maximum})`;
  return code;
}

function emitObject(schema: JsonSchema, ctx: EmitContext): string {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).map(([key, property]) => {
    const value = emitSchema(property, ctx);
    // A property with a default is filled in when absent: optional as input, always there as output.
    const optional = required.has(key) || property.default !== undefined ? '' : '.optional()';
    return `${JSON.stringify(key)}: ${value}${optional}`;
  });
  const extra = schema.additionalProperties;
  if (entries.length === 0 && extra !== undefined && extra !== false) {
    const value = extra === true ? 'z.unknown()' : emitSchema(extra, ctx);
    return `z.record(z.string(), ${value})`;
  }
  const shape = `{ ${entries.join(', ')} }`;
  if (extra === false) return `z.strictObject(${shape})`;
  if (extra !== undefined && extra !== true) return `z.object(${shape}).catchall(${emitSchema(extra, ctx)})`;
  return `z.object(${shape})`;
}

function emitUnion(parts: JsonSchema[], ctx: EmitContext, discriminator?: string): string {
  const nonNull = parts.filter((part) => !isNullSchema(part));
  const nullable = nonNull.length < parts.length;
  let code: string;
  if (nonNull.length === 1) code = emitSchema(nonNull[0], ctx);
  else if (discriminator && !nullable) {
    code = `z.discriminatedUnion(${literal(discriminator)}, [${nonNull.map((part) => emitSchema(part, ctx)).join(', ')}])`;
  } else code = `z.union([${nonNull.map((part) => emitSchema(part, ctx)).join(', ')}])`;
  return nullable ? `${code}.nullable()` : code;
}

function emitBare(schema: JsonSchema, ctx: EmitContext): string {
  if (schema.$ref) return emitRef(schema.$ref, ctx);
  if (schema.const !== undefined) return `z.literal(${literal(schema.const)})`;
  if (schema.enum) {
    const values = schema.enum.filter((value) => value !== null);
    const nullable = values.length < schema.enum.length;
    const code = values.every((value) => typeof value === 'string')
      ? `z.enum(${literal(values)})`
      : `z.union([${values.map((value) => `z.literal(${literal(value)})`).join(', ')}])`;
    return nullable ? `${code}.nullable()` : code;
  }
  if (schema.oneOf) return emitUnion(schema.oneOf, ctx, schema.discriminator?.propertyName);
  if (schema.anyOf) return emitUnion(schema.anyOf, ctx);
  if (schema.allOf) {
    return schema.allOf
      .map((part) => emitSchema(part, ctx))
      .reduce((left, right) => `z.intersection(${left}, ${right})`);
  }
  const kinds = types(schema);
  const nullable = kinds.includes('null');
  const nonNull = kinds.filter((kind) => kind !== 'null');
  if (nonNull.length > 1) {
    const members = nonNull.map((kind) => emitBare({ ...schema, type: kind }, ctx));
    return `z.union([${members.join(', ')}])${nullable ? '.nullable()' : ''}`;
  }
  let code: string;
  switch (nonNull[0]) {
    case 'string':
      code = emitString(schema, ctx);
      break;
    case 'integer':
      code = emitNumber(schema, true, ctx.fromText);
      break;
    case 'number':
      code = emitNumber(schema, false, ctx.fromText);
      break;
    case 'boolean':
      code = ctx.fromText ? "z.stringbool({ truthy: ['true'], falsy: ['false'] })" : 'z.boolean()';
      break;
    case 'array': {
      code = `z.array(${schema.items ? emitSchema(schema.items, ctx) : 'z.unknown()'})`;
      if (schema.minItems !== undefined) code += `.min(${schema.minItems})`;
      if (schema.maxItems !== undefined) code += `.max(${schema.maxItems})`;
      break;
    }
    case 'object':
      code = emitObject(schema, ctx);
      break;
    case 'null':
      code = 'z.null()';
      break;
    case undefined:
      code = schema.properties || schema.additionalProperties !== undefined ? emitObject(schema, ctx) : 'z.unknown()';
      break;
    default:
      throw new Error(`Unsupported type: ${nonNull[0]}`);
  }
  return nullable ? `${code}.nullable()` : code;
}

/** Zod source for one schema, with its default, and its description and first example as OpenAPI metadata. */
export function emitSchema(schema: JsonSchema, ctx: EmitContext): string {
  let code = emitBare(schema, ctx);
  if (schema.$ref) return code;
  if (schema.default !== undefined) code += `.default(${literal(schema.default)})`;
  const meta: Record<string, unknown> = {};
  if (schema.description !== undefined) meta.description = schema.description;
  if (schema.examples?.length) meta.example = schema.examples[0];
  return Object.keys(meta).length ? `${code}.openapi(${literal(meta)})` : code;
}
