/**
 * A record page notes that the user viewed the record, as the platform's record pages do: the record UI it
 * draws from takes no updateMru (docs/product-spec.md §5), so the page also reads the record's Id with
 * getRecord and updateMru=true, which moves the record to the top of the user's Recently Viewed list of its
 * object (the MRU list, `__Recent`). Once noted, that list's cached reads are stale.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getRecordQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';

/** The reads of the MRU list, whose answers a new use changes. */
const MRU_READS: readonly string[] = ['getMruListRecords', 'getMruListUi'];

/** Notes the record as viewed once each time its page opens; `objectApiName` is known once the record is. */
export function useNoteRecordViewed(recordId: string, objectApiName: string | undefined): void {
  const api = useApiClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!objectApiName) return;
    // Not aborted when the page is left at once: the record was viewed all the same.
    const read = getRecordQuery(api, { path: { recordId }, query: { fields: `${objectApiName}.Id`, updateMru: true } });
    // Asked each time, never answered from the cache: each visit is a use.
    queryClient.fetchQuery({ ...read, staleTime: 0, gcTime: 0 }).then(
      () =>
        queryClient.invalidateQueries({
          predicate: ({ queryKey: [operationId, parameters] }) =>
            MRU_READS.includes(operationId as string) &&
            (parameters as { objectApiName?: string } | undefined)?.objectApiName === objectApiName,
        }),
      // Not noted (the read failed): the page shows the record all the same, and says nothing of it.
      () => undefined,
    );
  }, [api, queryClient, recordId, objectApiName]);
}
