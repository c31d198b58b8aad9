/**
 * The React entry of the client: a TanStack Query options factory for every operation of the contract
 * (`<operationId>Query` for a read, `<operationId>Mutation` for a write), with the key scheme and the
 * invalidation they use. Needs React and @tanstack/react-query; the core entry (./index) needs neither.
 */
export * from '../generated/queries';
export { invalidateAfter } from './invalidation';
export { operationKey, staleAfter, type OperationKey } from './query-keys';
