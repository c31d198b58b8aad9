/**
 * A list view's records in its display columns: the view's metadata (getListInfoByName) gives the columns, its
 * label and its own order; the list records operation (getListRecordsByApiName) one page of records in the
 * order asked. A column header sorts by its field; the pager moves by the answer's page tokens. While another
 * page or order loads, the page shown stays, marked busy.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getListInfoByNameQuery, getListRecordsByApiNameQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate, PageLink } from '../../location';
import { displayText, fieldAt } from '../fields';
import { listHref, recordHref } from '../routes';
import { LoadError, Loading } from '../states';
import { ListPager } from './ListPager';
import { ariaSortOf, nextSortBy, sortOf, type ColumnSort } from './sorting';

/** Records a page, as the platform's list views show them. */
export const LIST_PAGE_SIZE = 50;

interface ListViewTableProps {
  objectApiName: string;
  listViewApiName: string;
  sortBy?: string;
  pageToken?: string;
}

export function ListViewTable({ objectApiName, listViewApiName, sortBy, pageToken }: ListViewTableProps) {
  const api = useApiClient();
  const path = { objectApiName, listViewApiName };
  const info = useQuery(getListInfoByNameQuery(api, { path }));
  const records = useQuery({
    ...getListRecordsByApiNameQuery(api, {
      path,
      query: { pageSize: LIST_PAGE_SIZE, ...(pageToken && { pageToken }), ...(sortBy && { sortBy }) },
    }),
    placeholderData: keepPreviousData,
  });
  if (info.isPending) return <Loading what="the list view" />;
  if (info.isError) return <LoadError what="The list view" error={info.error} />;

  const { displayColumns, orderedByInfo, label } = info.data;
  const sort: ColumnSort | undefined =
    sortOf(sortBy) ??
    (orderedByInfo[0] && { fieldApiName: orderedByInfo[0].fieldApiName, ascending: orderedByInfo[0].isAscending });
  const sortedLabel = displayColumns.find((column) => column.fieldApiName === sort?.fieldApiName)?.label;
  const page = records.data;
  const hrefFor = (options: { sortBy?: string; pageToken?: string }) =>
    listHref(objectApiName, listViewApiName, options);

  return (
    <section className="bo-list__view" aria-labelledby="bo-list-heading">
      <h1 id="bo-list-heading" className="bo-list__heading">
        {label}
      </h1>
      <p className="bo-list__summary" role="status">
        {records.isFetching
          ? 'Loading records…'
          : page
            ? `${itemsShown(page)}${sortedLabel ? ` · Sorted by ${sortedLabel}` : ''}`
            : ''}
      </p>
      {/* A failed call says so; the records of a failed refresh of the same page stay shown beneath. */}
      {records.isError && <LoadError what="The records" error={records.error} />}
      {records.isError && !page ? null : (
        <div className="bo-table-scroll">
          <table className="bo-table" aria-labelledby="bo-list-heading" aria-busy={records.isFetching}>
            <thead>
              <tr>
                {displayColumns.map((column) => (
                  <th key={column.fieldApiName} scope="col" aria-sort={ariaSortOf(column.fieldApiName, sort)}>
                    {column.sortable ? (
                      <button
                        type="button"
                        className="bo-table__sort"
                        onClick={() => navigate(hrefFor({ sortBy: nextSortBy(column.fieldApiName, sort) }))}
                      >
                        {column.label}
                        <span className="bo-table__arrow" aria-hidden="true">
                          {ariaSortOf(column.fieldApiName, sort) === 'descending' ? '▼' : '▲'}
                        </span>
                      </button>
                    ) : (
                      column.label
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page?.records.map((record) => (
                <tr key={record.id}>
                  {displayColumns.map((column, index) => {
                    const text = displayText(fieldAt(record, column.fieldApiName));
                    const Cell = index === 0 ? 'th' : 'td';
                    return (
                      <Cell key={column.fieldApiName} scope={index === 0 ? 'row' : undefined}>
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
          {page && page.records.length === 0 && <p className="bo-state">No items to display.</p>}
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
