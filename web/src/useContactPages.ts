import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { ContactUsCard } from '../../client/index';
import { useApiClient } from './api-client';
import { CONTACTS_PER_PAGE } from './constants';
import { contactsQuery } from './locator-data';
import { hasAnyFilter, type LocatorFilters } from './locator-params';
import { pageCountFor } from './pager';

export interface ContactPages {
  /** Whether any of brand, country or state is chosen; without one there is nothing to ask for. */
  hasFilter: boolean;
  /** The contacts of the current page. */
  contacts: ContactUsCard[];
  totalRecords: number;
  pageCount: number;
  /** The requested page, clamped to the pages that exist. */
  currentPage: number;
  /** Whether the current page is waiting for a chunk of contacts. */
  isLoading: boolean;
  /** Whether the total is known (always, without a filter): then currentPage is the page shown. */
  totalKnown: boolean;
}

/**
 * The matching contacts, one page at a time. The server sends them in chunks (ContactsResult) with the
 * total count; when the page after the current one lies past the loaded contacts, the next chunk is
 * requested with lastRecordId = the Id of the last loaded contact, and appended. (The server-rendered
 * page carries only the contacts up to the page after the one shown; the rest come the same way.)
 */
export function useContactPages(filters: LocatorFilters, page: number): ContactPages {
  const api = useApiClient();
  const hasFilter = hasAnyFilter(filters);
  const query = useInfiniteQuery({ ...contactsQuery(api, filters), enabled: hasFilter });
  const { data, error, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;

  useEffect(() => {
    // A failed contact load is kept, not shown to the visitor; the page then shows no contacts.
    if (error) console.error('Error fetching contacts', error);
  }, [error]);

  const loaded = useMemo(() => data?.pages.flatMap((chunk) => chunk.contacts) ?? [], [data]);
  const reportedTotal = data?.pages.at(-1)?.totalRecords ?? 0;
  // Once no further chunk can be had, what is loaded is all there is, whatever the count said.
  const canLoadMore = hasNextPage && !isFetchNextPageError;
  const totalRecords = !hasFilter ? 0 : canLoadMore ? Math.max(reportedTotal, loaded.length) : loaded.length;
  const pageCount = pageCountFor(totalRecords, CONTACTS_PER_PAGE);
  const currentPage = Math.min(Math.max(1, page), Math.max(1, pageCount));
  const missingNow = loaded.length < Math.min(currentPage * CONTACTS_PER_PAGE, totalRecords);
  // Read one page ahead, so that "Next" shows its cards at once.
  const wanted = hasFilter && loaded.length < Math.min((currentPage + 1) * CONTACTS_PER_PAGE, totalRecords);

  useEffect(() => {
    if (wanted && canLoadMore && !isFetchingNextPage) void fetchNextPage();
  }, [wanted, canLoadMore, isFetchingNextPage, fetchNextPage]);

  const start = (currentPage - 1) * CONTACTS_PER_PAGE;
  return {
    hasFilter,
    contacts: hasFilter ? loaded.slice(start, start + CONTACTS_PER_PAGE) : [],
    totalRecords,
    pageCount,
    currentPage,
    isLoading: hasFilter && (query.isLoading || (missingNow && canLoadMore)),
    totalKnown: !hasFilter || query.isSuccess,
  };
}
