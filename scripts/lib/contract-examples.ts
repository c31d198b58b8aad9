/**
 * The contract's own examples as the values of a request: path parameters and required query and header
 * parameters from their schema's `examples[0]` (or `example`, or the parameter's own example), the body from the
 * request body's first named example. Nothing is invented: an operation whose contract lacks an example it
 * needs is a contract defect, and ContractExampleError names the operation and what is missing.
 *
 * Used by the tests (tests/support/examples.ts, which also writes these as HTTP requests) and by the docs
 * build's code samples.
 */

type Json = Record<string, unknown>;

/** The part of an operation of the bundle the examples are read from. */
export interface ContractOperationNode {
  operationId: string;
  operation: Json;
  pathItem: Json;
}

export class ContractExampleError extends Error {
  constructor(
    readonly operationId: string,
    readonly missing: string,
  ) {
    super(`${operationId}: the contract gives no example for ${missing}`);
    this.name = 'ContractExampleError';
  }
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  explode?: boolean;
  schema?: Json;
  content?: Record<string, Json>;
  example?: unknown;
  examples?: Record<string, unknown>;
}

export const NONE = Symbol('no example');

/**
 * Optional parameters that an operation's example request carries all the same, with their contract
 * example: the operations whose rule "at least one of these" no single parameter can say.
 */
export const OPTIONAL_IN_EXAMPLE: Record<string, string[]> = {
  getRecord: ['fields'],
  getRecords: ['fields'],
  // Ids and names are each optional, but one of them must be given.
  getListInfosByName: ['names'],
  // Sections and apiNames are each optional, but one of them must be given.
  getRecordActions: ['sections'],
  // Absent, the View action, which no object overrides: the example asks for the overridden New.
  getActionOverrides: ['type'],
};

/** The example request of an operation as the generated client's input: { path, query, header, body }. */
export interface ExampleInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  header?: Record<string, unknown>;
  body?: unknown;
}

/** The example readers of one contract document (the bundle, $refs local). */
export function contractExamples(contract: Json) {
  const resolveRef = <T = Json>(node: unknown): T => {
    let current = node as Json;
    for (let hops = 0; current && typeof current.$ref === 'string'; hops++) {
      if (hops > 20) throw new Error(`$ref cycle at ${String(current.$ref)}`);
      current = (current.$ref as string)
        .slice(2)
        .split('/')
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<Json>((value, segment) => value?.[segment] as Json, contract);
      if (current === undefined) throw new Error('Unresolvable $ref');
    }
    return current as T;
  };

  /** The first example of a schema (2020-12 `examples[0]`, or the OpenAPI `example`), following $refs. */
  function schemaExample(schema: Json | undefined): unknown {
    if (!schema) return NONE;
    const resolved = resolveRef<Json>(schema);
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if ('example' in schema) return schema.example;
    if (Array.isArray(resolved.examples) && resolved.examples.length > 0) return resolved.examples[0];
    if ('example' in resolved) return resolved.example;
    return NONE;
  }

  /** The value of the first named example of a map of Example objects (refs resolved). */
  function firstNamedExample(examples: unknown): unknown {
    const values = Object.values((examples ?? {}) as Record<string, unknown>);
    if (values.length === 0) return NONE;
    const example = resolveRef<Json>(values[0]);
    return 'value' in example ? example.value : NONE;
  }

  function parameterExample(parameter: Parameter): unknown {
    if (parameter.schema) {
      const fromSchema = schemaExample(parameter.schema);
      if (fromSchema !== NONE) return fromSchema;
    }
    if (parameter.content) {
      const media = Object.values(parameter.content)[0] ?? {};
      const fromMedia = firstNamedExample(media.examples);
      if (fromMedia !== NONE) return fromMedia;
      if ('example' in media) return media.example;
      const fromSchema = schemaExample(media.schema as Json | undefined);
      if (fromSchema !== NONE) return fromSchema;
    }
    if ('example' in parameter) return parameter.example;
    return firstNamedExample(parameter.examples);
  }

  /** Path-item parameters, overridden by the operation's own of the same name and location. */
  function parametersOf(operation: ContractOperationNode): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const list of [operation.pathItem.parameters, operation.operation.parameters]) {
      for (const entry of (list ?? []) as unknown[]) {
        const parameter = resolveRef<Parameter>(entry);
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
    }
    return [...byKey.values()];
  }

  /** The request body's media type to send: JSON when declared, otherwise the first declared. */
  function bodyMediaType(content: Record<string, Json>): string | undefined {
    const types = Object.keys(content);
    return types.find((type) => type.toLowerCase() === 'application/json') ?? types[0];
  }

  /**
   * The operation's example request (the same parameters and body as exampleRequest) as values for the generated
   * client's call, which serialises them itself: a parameter whose content is JSON goes as its JSON text.
   */
  function exampleInput(operation: ContractOperationNode): ExampleInput {
    const { operationId } = operation;
    const input: ExampleInput = {};
    for (const parameter of parametersOf(operation)) {
      if (parameter.in === 'cookie') continue;
      if (parameter.in !== 'path' && !parameter.required && !OPTIONAL_IN_EXAMPLE[operationId]?.includes(parameter.name))
        continue;
      const value = parameterExample(parameter);
      if (value === NONE)
        throw new ContractExampleError(operationId, `its ${parameter.in} parameter ${parameter.name}`);
      const location = (input[parameter.in] ??= {});
      location[parameter.name] = parameter.content && typeof value !== 'string' ? JSON.stringify(value) : value;
    }
    if (operation.operation.requestBody) {
      const requestBody = resolveRef<{ required?: boolean; content?: Record<string, Json> }>(
        operation.operation.requestBody,
      );
      const content = requestBody.content ?? {};
      const mediaType = bodyMediaType(content);
      const value = mediaType ? firstNamedExample(content[mediaType].examples) : NONE;
      if (value !== NONE) input.body = value;
      else if (requestBody.required) throw new ContractExampleError(operationId, 'its request body: no named example');
    }
    return input;
  }

  return { resolveRef, schemaExample, firstNamedExample, parameterExample, parametersOf, bodyMediaType, exampleInput };
}
