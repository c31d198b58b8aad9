/**
 * Every status the server can give an operation is declared by it: 431 (URL or headers too large) on all;
 * 408 (a body too slow), 413 and 415 on those that take a body; 429 on those a guest may call (the public rate limit); 501 on
 * exactly the operations the server does not implement yet, so that implementing one means taking its 501
 * out of the contract.
 */
import { describe, expect, it } from 'vitest';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import { routes } from '../../generated/routes.ts';
import { implementedOperationIds } from '../support/implemented.ts';

const implemented = implementedOperationIds();
const operationIds = Object.keys(operationTable) as OperationId[];

describe('statuses every operation declares', () => {
  it.each(operationIds)('%s', (operationId) => {
    const { guest } = operationTable[operationId];
    const statuses: readonly number[] = operationTable[operationId].statuses;
    const takesBody = Boolean((routes[operationId] as { request?: { body?: unknown } }).request?.body);
    const expected = [431, ...(takesBody ? [408, 413, 415] : []), ...(guest ? [429] : [])];
    expect(
      expected.filter((status) => !statuses.includes(status)),
      'statuses the server can give but the contract does not declare',
    ).toEqual([]);
    expect(
      statuses.includes(501),
      implemented.has(operationId) ? 'implemented, yet declares 501' : 'not implemented, yet does not declare 501',
    ).toBe(!implemented.has(operationId));
  });
});
