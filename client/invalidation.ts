/** What a write's success does to a TanStack Query cache: the queries its x-invalidates lists are invalidated. */
import type { QueryClient } from '@tanstack/react-query';
import type { ContractOperation } from '../generated/operations';
import { staleAfter } from './query-keys';

/** Invalidates (and so refetches, where they are in use) the cached queries a write made stale. */
export function invalidateAfter(
  queryClient: QueryClient,
  write: Pick<ContractOperation, 'invalidates'>,
  input: object,
  response: unknown,
): Promise<void> {
  const stale = staleAfter(write, input, response);
  return queryClient.invalidateQueries({ predicate: (query) => stale(query.queryKey) });
}
