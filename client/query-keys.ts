/**
 * The one query-key scheme, and which cached answers a write makes stale.
 *
 * A query's key is [operationId, parameters]: the operation's path and query parameters as one object, with
 * the body under `body` for a read that takes one (x-read); absent parameters are left out, header parameters
 * (If-None-Match) too. TanStack Query hashes object keys in sorted order, so the order they are given in does
 * not matter.
 *
 * A write's x-invalidates (the contract) lists the reads its success makes stale, each matched on parameters of
 * the read's key whose value the write holds: see staleAfter.
 */
import type { ContractOperation } from '../generated/operations';
import type { OperationId } from './errors';

export type OperationKey<Op extends OperationId> = readonly [Op, Readonly<Record<string, unknown>>];

/** The key of a query of the operation with this input ({ path?, query?, header?, body? }). */
export function operationKey<Op extends OperationId>(operationId: Op, input: object): OperationKey<Op> {
  const { path, query, body } = input as { path?: object; query?: object; body?: unknown };
  const parameters: Record<string, unknown> = {};
  for (const values of [path, query])
    for (const [name, value] of Object.entries(values ?? {})) if (value !== undefined) parameters[name] = value;
  if (body !== undefined) parameters.body = body;
  return [operationId, parameters] as const;
}

/** The value at a dotted path of a write's input or answer: `path.recordId`, `body.contextId`, `response.apiName`. */
export function sourceValue(source: string, input: object, response: unknown): unknown {
  const [place, ...names] = source.split('.');
  let value: unknown = place === 'response' ? response : (input as Record<string, unknown>)[place];
  for (const name of names) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[name];
  }
  return value;
}

/** Whether a key's parameter holds the value: equal, or one of its comma-separated (or listed) values. */
function holds(parameter: unknown, value: unknown): boolean {
  const wanted = String(value);
  if (Array.isArray(parameter)) return parameter.some((item) => String(item) === wanted);
  return String(parameter)
    .split(',')
    .some((item) => item.trim() === wanted);
}

/**
 * Whether a cached query (by its key) is stale after a write of this operation, with this input, that answered
 * this. A rule's matched parameter narrows it only when the write holds a value for it and the key has that
 * parameter; otherwise the rule makes every query of its operation stale, which may refetch more than needed
 * but never keeps a stale answer.
 */
export function staleAfter(
  write: Pick<ContractOperation, 'invalidates'>,
  input: object,
  response: unknown,
): (queryKey: readonly unknown[]) => boolean {
  const { invalidates } = write;
  if (invalidates === 'all') return () => true;
  return (queryKey) => {
    const [operationId, parameters] = queryKey as [unknown, Record<string, unknown> | undefined];
    return invalidates.some((rule) => {
      if (rule.operationId !== operationId) return false;
      return Object.entries(rule.match ?? {}).every(([name, source]) => {
        const value = sourceValue(source, input, response);
        const parameter = parameters?.[name];
        if (value === undefined || value === null || parameter === undefined) return true;
        return holds(parameter, value);
      });
    });
  };
}
