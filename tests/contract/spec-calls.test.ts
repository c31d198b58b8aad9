/**
 * The contract against docs/product-spec.md §7, "The calls it makes": every call listed there
 * (tests/spec-calls.ts) is an operation of the contract, and every operation of the contract is a §7 call
 * or a listed extra with its reason.
 */
import { describe, expect, it } from 'vitest';
import { contract, operationsOf } from '../support/contract.ts';
import { extras, specCalls } from '../spec-calls.ts';

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const operations = operationsOf(contract);
const inContract = new Map(
  operations.map((operation) => [key(operation.method, operation.path), operation.operationId]),
);
const specKeys = specCalls.map((call) => key(call.method, call.path));
const extraKeys = extras.map((call) => key(call.method, call.path));

const duplicates = (keys: string[]) => keys.filter((value, index) => keys.indexOf(value) !== index);

describe(`the contract and spec §7: ${specCalls.length} calls, ${extras.length} extras, ${operations.length} operations in the contract`, () => {
  it('lists each call once, in one table only', () => {
    expect(duplicates([...specKeys, ...extraKeys]), 'rows listed twice').toEqual([]);
    for (const extra of extras)
      expect(extra.reason.trim(), `${key(extra.method, extra.path)} needs a reason`).not.toBe('');
  });

  it('has an operation for every call of §7', () => {
    const missing = specCalls.filter((call) => !inContract.has(key(call.method, call.path)));
    if (missing.length > 0) {
      console.log(
        `§7 calls missing from the contract (${missing.length} of ${specCalls.length}):\n${missing.map((call) => `  ${key(call.method, call.path)}  [${call.section}]`).join('\n')}`,
      );
    }
    expect(
      missing.map((call) => `${key(call.method, call.path)}  [${call.section}]`),
      '§7 calls missing from the contract',
    ).toEqual([]);
  });

  it('has no operation that is neither a §7 call nor a listed extra', () => {
    const listed = new Set([...specKeys, ...extraKeys]);
    const unlisted = [...inContract]
      .filter(([operationKey]) => !listed.has(operationKey))
      .map(([operationKey, operationId]) => `${operationKey}  (${operationId})`);
    if (unlisted.length > 0)
      console.log(
        `Operations of the contract in neither table of tests/spec-calls.ts:\n${unlisted.map((line) => `  ${line}`).join('\n')}`,
      );
    expect(unlisted, 'operations in neither specCalls nor extras').toEqual([]);
  });

  it('has every listed extra', () => {
    const stale = extras
      .filter((call) => !inContract.has(key(call.method, call.path)))
      .map((call) => key(call.method, call.path));
    expect(stale, 'extras the contract does not have (remove them or fix the path)').toEqual([]);
  });
});
