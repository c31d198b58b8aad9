/**
 * The signature of every operation of an OpenAPI document, and the differences between two documents:
 * method, path, operationId, parameters (name, in, required), response status codes, request and response
 * media types. Header names compare case-insensitively (HTTP does, and Hono lower-cases them).
 */
import { HTTP_METHODS, resolveRef } from './contract.ts';

type Json = Record<string, unknown>;

export interface OperationSignature {
  operationId: string;
  /** "GET /path/{param}" */
  route: string;
  /** "in:name:required|optional", sorted. */
  parameters: string[];
  /** "absent" | "required" | "optional" */
  requestBody: string;
  requestMediaTypes: string[];
  /** Status code to its media types, sorted: {"200": ["application/json"], "304": []}. */
  responses: Record<string, string[]>;
}

function parameterKey(doc: Json, node: unknown): { key: string; text: string } {
  const parameter = resolveRef<{ name: string; in: string; required?: boolean }>(doc, node);
  const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
  return {
    key: `${parameter.in}:${name}`,
    text: `${parameter.in}:${name}:${parameter.required ? 'required' : 'optional'}`,
  };
}

/** Every operation's signature, by operationId; an operationId used twice is reported as an error. */
export function operationSignatures(doc: Json): Map<string, OperationSignature> {
  const signatures = new Map<string, OperationSignature>();
  for (const [path, pathItem] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as Json | undefined;
      if (!operation) continue;
      const operationId = String(operation.operationId ?? `(no operationId) ${method.toUpperCase()} ${path}`);
      if (signatures.has(operationId)) throw new Error(`operationId ${operationId} is used twice`);
      // Operation parameters override path-item parameters of the same name and location.
      const parameters = new Map<string, string>();
      for (const node of [
        ...((pathItem.parameters as unknown[]) ?? []),
        ...((operation.parameters as unknown[]) ?? []),
      ]) {
        const { key, text } = parameterKey(doc, node);
        parameters.set(key, text);
      }
      const body = operation.requestBody ? resolveRef<Json>(doc, operation.requestBody) : undefined;
      const responses: Record<string, string[]> = {};
      for (const [status, node] of Object.entries((operation.responses ?? {}) as Json)) {
        const response = resolveRef<Json>(doc, node);
        responses[status] = Object.keys((response.content ?? {}) as Json).sort();
      }
      signatures.set(operationId, {
        operationId,
        route: `${method.toUpperCase()} ${path}`,
        parameters: [...parameters.values()].sort(),
        requestBody: body ? (body.required ? 'required' : 'optional') : 'absent',
        requestMediaTypes: Object.keys((body?.content ?? {}) as Json).sort(),
        responses,
      });
    }
  }
  return signatures;
}

const list = (items: string[]) => (items.length ? items.join(', ') : '(none)');

/** Every difference between the signatures of two documents, in words; empty when they agree. */
export function signatureDifferences(
  contract: Json,
  server: Json,
  names = { left: 'contract', right: 'server' },
): string[] {
  const left = operationSignatures(contract);
  const right = operationSignatures(server);
  const differences: string[] = [];
  for (const id of left.keys())
    if (!right.has(id)) differences.push(`${id}: only in the ${names.left} (${left.get(id)!.route})`);
  for (const id of right.keys())
    if (!left.has(id)) differences.push(`${id}: only in the ${names.right} (${right.get(id)!.route})`);
  for (const [id, a] of left) {
    const b = right.get(id);
    if (!b) continue;
    if (a.route !== b.route)
      differences.push(`${id}: route ${a.route} in the ${names.left}, ${b.route} in the ${names.right}`);
    const onlyIn = (x: string[], y: string[]) => x.filter((item) => !y.includes(item));
    for (const parameter of onlyIn(a.parameters, b.parameters))
      differences.push(`${id}: parameter ${parameter} only in the ${names.left}`);
    for (const parameter of onlyIn(b.parameters, a.parameters))
      differences.push(`${id}: parameter ${parameter} only in the ${names.right}`);
    if (a.requestBody !== b.requestBody)
      differences.push(
        `${id}: request body ${a.requestBody} in the ${names.left}, ${b.requestBody} in the ${names.right}`,
      );
    if (list(a.requestMediaTypes) !== list(b.requestMediaTypes)) {
      differences.push(
        `${id}: request media types ${list(a.requestMediaTypes)} in the ${names.left}, ${list(b.requestMediaTypes)} in the ${names.right}`,
      );
    }
    const statuses = [...new Set([...Object.keys(a.responses), ...Object.keys(b.responses)])].sort();
    for (const status of statuses) {
      if (!(status in b.responses)) differences.push(`${id}: status ${status} only in the ${names.left}`);
      else if (!(status in a.responses)) differences.push(`${id}: status ${status} only in the ${names.right}`);
      else if (list(a.responses[status]) !== list(b.responses[status])) {
        differences.push(
          `${id}: ${status} media types ${list(a.responses[status])} in the ${names.left}, ${list(b.responses[status])} in the ${names.right}`,
        );
      }
    }
  }
  return differences;
}
