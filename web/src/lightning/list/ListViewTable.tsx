/**
 * A list view's records in its display columns: the view's metadata (getListInfoByName) gives the columns, its
 * label and its own order; the list records operation (getListRecordsByApiName) one page of records in the
 * order asked. The Recently Viewed list (`__Recent`) reads the MRU list's operations instead (getMruListInfo,
 * getMruListRecords). A column header sorts by its field; the pager moves by the answer's page tokens. While
 * another page or order loads, the page shown stays, marked busy. Each column's width and wrapping are the
 * user's list preferences (ColumnHeader).
 */
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  getListInfoByNameQuery,
  getListPreferencesQuery,
  getListRecordsByApiNameQuery,
  getMruListInfoQuery,
  getMruListRecordsQuery,
} from '../../../../generated/queries';
import type { ApiClient } from '../../../../client/index';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { displayText, fieldAt } from '../fields';
import { listHref, recordHref, RECENT_LIST_VIEW } from '../routes';
import { LoadError, Loading } from '../states';
import { ColumnHeader, useColumnPreferences } from './ColumnHeader';
import { widthOf, wrapsOf } from './column-widths';
import { filterText } from './filters';
import { ListPager } from './ListPager';
import { sortOf, type ColumnSort } from './sorting';

/** Records a page, as the platform's list views show them. */
export const LIST_PAGE_SIZE = 50;

interface ListViewTableProps {
  objectApiName: string;
  listViewApiName: string;
  sortBy?: string;
  pageToken?: string;
}

/** A page of the view's records in the order asked: the query string of either list records operation. */
function recordsPage({ sortBy, pageToken }: ListViewTableProps) {
  return { pageSize: LIST_PAGE_SIZE, ...(pageToken && { pageToken }), ...(sortBy && { sortBy }) };
}

/** The queries of a named view's first screen: its metadata, the page of records, the user's preferences. */
export function namedViewQueries(api: ApiClient, view: ListViewTableProps) {
  const path = { objectApiName: view.objectApiName, listViewApiName: view.listViewApiName };
  return [
    getListInfoByNameQuery(api, { path }),
    getListRecordsByApiNameQuery(api, { path, query: recordsPage(view) }),
    getListPreferencesQuery(api, { path }),
  ] as const;
}

/**
 * Starts the queries of a named view's first screen, for the page to ask for them beside its list of views: the
 * table, which the page shows once that list is in, would ask a round trip later.
 */
export function prefetchNamedView(queryClient: QueryClient, api: ApiClient, view: ListViewTableProps): void {
  const [info, records, preferences] = namedViewQueries(api, view);
  void queryClient.prefetchQuery(info);
  void queryClient.prefetchQuery(records);
  void queryClient.prefetchQuery(preferences);
}

/** The list view's metadata: the MRU list's for Recently Viewed, else the named view's. */
export function useListInfo(objectApiName: string, listViewApiName: string) {
  const api = useApiClient();
  const recent = listViewApiName === RECENT_LIST_VIEW;
  const named = useQuery({
    ...getListInfoByNameQuery(api, { path: { objectApiName, listViewApiName } }),
    enabled: !recent,
  });
  const mru = useQuery({ ...getMruListInfoQuery(api, { path: { objectApiName } }), enabled: recent });
  return recent ? mru : named;
}

export function ListViewTable(props: ListViewTableProps) {
  const { objectApiName, listViewApiName, sortBy } = props;
  const api = useApiClient();
  const path = { objectApiName, listViewApiName };
  const info = useListInfo(objectApiName, listViewApiName);
  const recent = listViewApiName === RECENT_LIST_VIEW;
  const query = recordsPage(props);
  const namedRecords = useQuery({
    ...getListRecordsByApiNameQuery(api, { path, query }),
    placeholderData: keepPreviousData,
    enabled: !recent,
  });
  const mruRecords = useQuery({
    ...getMruListRecordsQuery(api, { path: { objectApiName }, query }),
    placeholderData: keepPreviousData,
    enabled: recent,
  });
  const records = recent ? mruRecords : namedRecords;
  const preferences = useQuery(getListPreferencesQuery(api, { path }));
  const columnPreferences = useColumnPreferences(objectApiName, listViewApiName);
  if (info.isPending) return <Loading what="the list view" />;
  if (info.isError) return <LoadError what="The list view" error={info.error} />;

  const { displayColumns, orderedByInfo, label, filteredByInfo } = info.data;
  const sort: ColumnSort | undefined =
    sortOf(sortBy) ??
    (orderedByInfo[0] && { fieldApiName: orderedByInfo[0].fieldApiName, ascending: orderedByInfo[0].isAscending });
  const sortedLabel = displayColumns.find((column) => column.fieldApiName === sort?.fieldApiName)?.label;
  const page = records.data;
  const hrefFor = (options: { sortBy?: string; pageToken?: string }) =>
    listHref(objectApiName, listViewApiName, options);
  // Widths and wrapping wait for the user's preferences: until then the defaults, never a jump back.
  const shownPreferences = preferences.data;
  const widths = displayColumns.map((column) => widthOf(shownPreferences, column.fieldApiName));

  return (
    <section className="bo-list__view" aria-labelledby="bo-list-heading">
      <h1 id="bo-list-heading" className="bo-list__heading">
        {label}
      </h1>
      {filteredByInfo.length > 0 && (
        <p className="bo-list__filters">
          Filtered by {filteredByInfo.map((filter) => filterText(filter, filter.label)).join('; ')}
        </p>
      )}
      <p className="bo-list__summary" role="status">
        {records.isFetching
          ? 'Loading records…'
          : page
            ? `${itemsShown(page)}${sortedLabel ? ` · Sorted by ${sortedLabel}` : ''}`
            : ''}
      </p>
      {/* A failed call says so; the records of a failed refresh of the same page stay shown beneath. */}
      {records.isError && <LoadError what="The records" error={records.error} />}
      {preferences.isError && <LoadError what="Your column widths" error={preferences.error} />}
      {columnPreferences.saveError && (
        <div className="bo-state bo-state--error" role="alert">
          <p>Your column width or wrapping was not saved. Try again.</p>
        </div>
      )}
      {records.isError && !page ? null : (
        <div className="bo-table-scroll">
          <table
            className="bo-table bo-table--sized"
            aria-labelledby="bo-list-heading"
            aria-busy={records.isFetching}
            style={{ width: widths.reduce((sum, width) => sum + width, 0) }}
          >
            <colgroup>
              {displayColumns.map((column, index) => (
                <col key={column.fieldApiName} style={{ width: widths[index] }} />
              ))}
            </colgroup>
            <thead>
              <tr>
                {displayColumns.map((column, index) => (
                  <ColumnHeader
                    key={column.fieldApiName}
                    column={column}
                    preferences={columnPreferences}
                    sort={sort}
                    width={widths[index]}
                    wraps={wrapsOf(shownPreferences, column.fieldApiName)}
                    sortHref={hrefFor}
                  />
                ))}
              </tr>
            </thead>
            <tbody>
              {page?.records.map((record) => (
                <tr key={record.id}>
                  {displayColumns.map((column, index) => {
                    const text = displayText(fieldAt(record, column.fieldApiName));
                    const Cell = index === 0 ? 'th' : 'td';
                    const wraps = wrapsOf(shownPreferences, column.fieldApiName);
                    return (
                      <Cell
                        key={column.fieldApiName}
                        scope={index === 0 ? 'row' : undefined}
                        className={wraps ? 'bo-cell--wrap' : 'bo-cell--clip'}
                        title={wraps ? undefined : text || undefined}
                      >
                        {column.lookupId === 'Id' ? (
                          <PageLink href={recordHref(objectApiName, record.id)}>{text || record.id}</PageLink>
                        ) : (
                          text
                        )}
                      </Cell>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          {!page && records.isPending && <Loading what="the records" />}
          {page && page.records.length === 0 && (
            <p className="bo-state">
              {recent ? 'You haven’t viewed any of these records recently.' : 'No items to display.'}
            </p>
          )}
        </div>
      )}
      {page && (
        <ListPager
          previousHref={
            page.previousPageToken === null ? undefined : hrefFor({ sortBy, pageToken: page.previousPageToken })
          }
          nextHref={page.nextPageToken === null ? undefined : hrefFor({ sortBy, pageToken: page.nextPageToken })}
        />
      )}
    </section>
  );
}

/** How many records the page shows, with a + when more follow it, as the platform's list views say it: "50+ items". */
function itemsShown(page: { count: number; nextPageToken?: string | null }): string {
  return `${page.count}${page.nextPageToken ? '+' : ''} ${page.count === 1 && !page.nextPageToken ? 'item' : 'items'}`;
}
