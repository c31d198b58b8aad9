/**
 * Type-level tests of the generated client: `npm run typecheck` compiles this file, and fails where a call with
 * a wrong parameter, a missing required field or a wrong body compiles, where an error does not narrow by status,
 * or where a `@ts-expect-error` below stops being an error. Nothing here runs.
 */
import type { QueryClient } from '@tanstack/react-query';
import {
  createRecord,
  getContacts,
  getRecord,
  getSession,
  signOut,
  updateRecord,
  type ApiClient,
  type ErrorList,
  type OperationError,
  type RecordWriteError,
} from '../../client/index';
import { createRecordMutation, getListRecordsByNameQuery, getRecordQuery } from '../../client/react';
import type { Schemas } from '../../generated/types';

declare const api: ApiClient;
declare const queryClient: QueryClient;
declare function expectType<T>(value: T): void;

// The calls: parameters by where they go, typed and required as the contract declares them.
export async function calls() {
  expectType<Schemas['RecordRepresentation']>(await getRecord(api, { path: { recordId: 'a0B000000000001AAA' } }));
  await getRecord(api, { path: { recordId: 'a0B000000000001AAA' }, query: { fields: 'Account.Name', pageSize: 5 } });
  // @ts-expect-error a path parameter spelled wrong
  await getRecord(api, { path: { recordID: 'a0B000000000001AAA' } });
  // @ts-expect-error the required path parameter missing
  await getRecord(api, {});
  // @ts-expect-error a query parameter of the wrong type
  await getRecord(api, { path: { recordId: 'a0B000000000001AAA' }, query: { pageSize: 'five' } });
  // @ts-expect-error a query parameter the operation does not have
  await getRecord(api, { path: { recordId: 'a0B000000000001AAA' }, query: { where: 'x' } });

  await createRecord(api, { body: { apiName: 'Account', fields: { Name: 'Acme' } } });
  // @ts-expect-error the required body missing
  await createRecord(api, {});
  // @ts-expect-error a required field of the body missing
  await createRecord(api, { body: { apiName: 'Account' } });
  // @ts-expect-error a body field of the wrong type
  await createRecord(api, { body: { apiName: 42, fields: {} } });
  await updateRecord(api, { path: { recordId: 'a0B000000000001AAA' }, body: { fields: { Name: 'Acme' } } });

  // Operations without a required input may be called without one; a 204 resolves to undefined.
  expectType<Schemas['SessionRepresentation']>(await getSession(api));
  expectType<undefined>(await signOut(api));
  await getContacts(api, { query: { methodParams: '{}' } }, { signal: AbortSignal.timeout(1000) });
}

// Errors narrow by status to the body the contract declares for it.
export function errors(recordWrite: OperationError<'createRecord'>, apex: OperationError<'getContacts'>) {
  if (recordWrite.status === 400) expectType<RecordWriteError | ErrorList>(recordWrite.body);
  if (recordWrite.status === 401) {
    expectType<ErrorList>(recordWrite.body);
    // @ts-expect-error a 401 has no record-write output
    void recordWrite.body.output;
  }
  if (recordWrite.status === 0) expectType<ErrorList>(recordWrite.body);
  // @ts-expect-error createRecord declares no 404
  if (recordWrite.status === 404) return;
  if (apex.status === 400) expectType<string>(apex.body.errorMessage);
  if (apex.status === 0) expectType<string>(apex.body.errorMessage);
  // @ts-expect-error the Apex transport's errors are not error lists
  expectType<ErrorList>(apex.body);
}

// The factories: typed inputs, data and errors.
export function factories() {
  const record = getRecordQuery(api, { path: { recordId: 'a0B000000000001AAA' } });
  expectType<readonly ['getRecord', Readonly<Record<string, unknown>>]>(record.queryKey);
  // @ts-expect-error a read's factory takes the read's input
  getRecordQuery(api, { path: { objectApiName: 'Account' } });
  getListRecordsByNameQuery(api, {
    path: { objectApiName: 'Account', listViewApiName: 'AllAccounts' },
    body: { where: '{ Name: { like: "A%" } }' },
  });
  const create = createRecordMutation(api, queryClient);
  expectType<((input: Parameters<typeof createRecord>[1]) => Promise<Schemas['RecordRepresentation']>) | undefined>(
    create.mutationFn as
      ((input: Parameters<typeof createRecord>[1]) => Promise<Schemas['RecordRepresentation']>) | undefined,
  );
}
