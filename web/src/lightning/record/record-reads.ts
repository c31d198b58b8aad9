/** The cached reads that name a record (its record, record UI, actions, related lists, …): to read anew or drop. */
import type { Query } from '@tanstack/react-query';

export const readsOfRecord = (recordId: string) => ({
  predicate: (query: Query) => JSON.stringify(query.queryKey).includes(recordId),
});
