/**
 * A valid request for any operation of the bundle, built only from the contract's own examples: path
 * parameters and required query, header and cookie parameters from their schema's `examples[0]` (or
 * `example`, or the parameter's own example), the body from the request body's first named example.
 *
 * Nothing is invented here: an operation whose contract lacks an example it needs is a contract defect, and
 * the builder throws a ContractExampleError naming the operation and what is missing.
 */
import {
  contractExamples,
  ContractExampleError,
  NONE,
  OPTIONAL_IN_EXAMPLE,
  type ExampleInput,
  type Parameter,
} from '../../scripts/lib/contract-examples.ts';
import { contract, contractOperation, resolveRef, type Operation } from './contract.ts';

const {
  firstNamedExample,
  parameterExample,
  parametersOf,
  bodyMediaType,
  exampleInput: inputOf,
} = contractExamples(contract);

type Json = Record<string, unknown>;

export interface ExampleRequest {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path with its parameters filled in, and the query string if any. */
  pathAndQuery: string;
  headers: Record<string, string>;
  body?: BodyInit;
  /** The media type of the body, when there is one. */
  mediaType?: string;
}

function scalar(operationId: string, parameter: Parameter, value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  throw new Error(
    `${operationId}: the example of ${parameter.in} parameter ${parameter.name} is ${JSON.stringify(value)}, which this builder does not serialise`,
  );
}

/**
 * Percent-encodes a path segment, commas included: the same value for a server that decodes its path
 * parameters, and Prism 5.14 would otherwise split a comma-separated string (a list of ids, the resizing
 * options) into an array and reject it as "must be string".
 */
const encodePathSegment = encodeURIComponent;

/** Simple style (path, header): arrays comma-joined, objects as key,value pairs (key=value when exploded). */
function simpleStyle(
  operationId: string,
  parameter: Parameter,
  value: unknown,
  encode: (text: string) => string,
): string {
  if (parameter.content) return encode(typeof value === 'string' ? value : JSON.stringify(value));
  if (Array.isArray(value)) return value.map((item) => encode(scalar(operationId, parameter, item))).join(',');
  if (value && typeof value === 'object') {
    const pairs = Object.entries(value as Json).map(([key, item]) => [
      encode(key),
      encode(scalar(operationId, parameter, item)),
    ]);
    return pairs.map(([key, item]) => (parameter.explode ? `${key}=${item}` : `${key},${item}`)).join(',');
  }
  return encode(String(value));
}

/** Form style (query, cookie; explode by default): name=a&name=b for arrays, key=value for objects. */
function formStyle(operationId: string, parameter: Parameter, value: unknown): string[] {
  const name = encodeURIComponent(parameter.name);
  if (parameter.content)
    return [`${name}=${encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value))}`];
  const explode = parameter.explode ?? true;
  if (Array.isArray(value)) {
    const items = value.map((item) => encodeURIComponent(scalar(operationId, parameter, item)));
    return explode ? items.map((item) => `${name}=${item}`) : [`${name}=${items.join(',')}`];
  }
  if (value && typeof value === 'object') {
    const pairs = Object.entries(value as Json).map(([key, item]) => [
      encodeURIComponent(key),
      encodeURIComponent(scalar(operationId, parameter, item)),
    ]);
    return explode ? pairs.map(([key, item]) => `${key}=${item}`) : [`${name}=${pairs.flat().join(',')}`];
  }
  return [`${name}=${encodeURIComponent(String(value))}`];
}

function jsonBody(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A body of the request body's media type from an example value. */
function encodeBody(mediaType: string, value: unknown, schema: Json | undefined): BodyInit {
  const type = mediaType.toLowerCase();
  if (/^application\/(?:[\w.+-]+\+)?json$/.test(type)) return JSON.stringify(value);
  if (type === 'multipart/form-data') {
    const form = new FormData();
    const properties = (resolveRef<Json>(contract, schema ?? {}).properties ?? {}) as Record<string, Json>;
    for (const [name, part] of Object.entries((value ?? {}) as Json)) {
      const partSchema = properties[name] ? resolveRef<Json>(contract, properties[name]) : {};
      const binary =
        partSchema.format === 'binary' ||
        typeof partSchema.contentMediaType === 'string' ||
        typeof partSchema.contentEncoding === 'string';
      if (binary) {
        const partType =
          typeof partSchema.contentMediaType === 'string' ? partSchema.contentMediaType : 'application/octet-stream';
        form.append(name, new Blob([typeof part === 'string' ? part : JSON.stringify(part)], { type: partType }), name);
      } else form.append(name, typeof part === 'string' ? part : jsonBody(part));
    }
    return form;
  }
  if (type === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(
      Object.entries((value ?? {}) as Json).map(([key, item]) => [
        key,
        typeof item === 'string' ? item : jsonBody(item),
      ]),
    );
  }
  if (type.startsWith('text/')) return typeof value === 'string' ? value : JSON.stringify(value);
  return new Blob([typeof value === 'string' ? value : JSON.stringify(value)], { type: mediaType });
}

/** The example request of an operation (by operationId or as found by operationsOf). Throws on a contract gap. */
export function exampleRequest(operationOrId: string | Operation): ExampleRequest {
  const operation = typeof operationOrId === 'string' ? contractOperation(operationOrId) : operationOrId;
  const { operationId } = operation;
  let path = operation.path;
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];

  for (const parameter of parametersOf(operation)) {
    if (parameter.in !== 'path' && !parameter.required && !OPTIONAL_IN_EXAMPLE[operationId]?.includes(parameter.name))
      continue;
    const value = parameterExample(parameter);
    if (value === NONE) throw new ContractExampleError(operationId, `its ${parameter.in} parameter ${parameter.name}`);
    switch (parameter.in) {
      case 'path': {
        const placeholder = `{${parameter.name}}`;
        if (!path.includes(placeholder))
          throw new Error(`${operationId}: path parameter ${parameter.name} is not in the path ${operation.path}`);
        path = path.replace(placeholder, simpleStyle(operationId, parameter, value, encodePathSegment));
        break;
      }
      case 'query':
        query.push(...formStyle(operationId, parameter, value));
        break;
      case 'header':
        headers[parameter.name] = simpleStyle(operationId, parameter, value, (text) => text);
        break;
      case 'cookie':
        cookies.push(...formStyle(operationId, parameter, value));
        break;
    }
  }
  const unfilled = path.match(/\{[^}]+\}/g);
  if (unfilled)
    throw new ContractExampleError(
      operationId,
      `the path template ${unfilled.join(', ')} (no path parameter of that name is declared)`,
    );
  if (cookies.length > 0) headers.Cookie = cookies.join('; ');

  const request: ExampleRequest = {
    operationId,
    method: operation.method.toUpperCase(),
    pathAndQuery: query.length > 0 ? `${path}?${query.join('&')}` : path,
    headers,
  };

  if (operation.operation.requestBody) {
    const requestBody = resolveRef<{ required?: boolean; content?: Record<string, Json> }>(
      contract,
      operation.operation.requestBody,
    );
    const content = requestBody.content ?? {};
    const mediaType = bodyMediaType(content);
    const value = mediaType ? firstNamedExample(content[mediaType].examples) : NONE;
    if (value !== NONE && mediaType) {
      request.body = encodeBody(mediaType, value, content[mediaType].schema as Json | undefined);
      request.mediaType = mediaType;
      // FormData sets its own Content-Type with the boundary.
      if (mediaType.toLowerCase() !== 'multipart/form-data') headers['Content-Type'] = mediaType;
    } else if (requestBody.required) {
      throw new ContractExampleError(
        operationId,
        `its request body${mediaType ? ` (${mediaType})` : ''}: no named example`,
      );
    }
  }
  return request;
}

/**
 * The cookie that carries a session for the operation: its security requirements name an API key in a cookie
 * (the sessionCookie scheme). Undefined when the operation has no such scheme.
 */
export function sessionCookieName(operationOrId: string | Operation): string | undefined {
  const operation = typeof operationOrId === 'string' ? contractOperation(operationOrId) : operationOrId;
  const requirements = (operation.operation.security ?? contract.security ?? []) as Record<string, unknown>[];
  const schemes = ((contract.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, unknown>;
  for (const name of requirements.flatMap((requirement) => Object.keys(requirement))) {
    const scheme = resolveRef<Json>(contract, schemes[name] ?? {});
    if (scheme.type === 'apiKey' && scheme.in === 'cookie' && typeof scheme.name === 'string') return scheme.name;
  }
  return undefined;
}

export interface ExampleFetchOptions {
  /** Headers added to (or replacing) the example's. */
  headers?: Record<string, string>;
  /** A session to present in the session cookie, on the operations whose security names it. */
  session?: string;
}

/** The example request as fetch arguments against a base URL (http://127.0.0.1:port, no trailing slash). */
export function exampleFetch(
  baseUrl: string,
  operationOrId: string | Operation,
  options: ExampleFetchOptions = {},
): { url: string; init: RequestInit } {
  const request = exampleRequest(operationOrId);
  const headers = { ...request.headers };
  const cookieName = options.session === undefined ? undefined : sessionCookieName(operationOrId);
  if (cookieName)
    headers.Cookie = [headers.Cookie, `${cookieName}=${encodeURIComponent(options.session!)}`]
      .filter(Boolean)
      .join('; ');
  return {
    url: `${baseUrl}${request.pathAndQuery}`,
    init: {
      method: request.method,
      headers: { ...headers, ...options.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
  };
}

/**
 * The operation's example request (the same parameters and body as exampleRequest) as values for the generated
 * client's call, which serialises them itself: a parameter whose content is JSON goes as its JSON text.
 */
export function exampleInput(operationOrId: string | Operation): ExampleInput {
  return inputOf(typeof operationOrId === 'string' ? contractOperation(operationOrId) : operationOrId);
}
