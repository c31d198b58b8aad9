/**
 * A record's related list on a page of its own (/lightning/r/{objectApiName}/{recordId}/related/{relatedListId}/view,
 * the platform's record relationship page, which a card's "View All" opens): the related list's label and
 * columns (getRelatedListInfo), under the way back to its object and its record, and a page of its records
 * (getRelatedListRecordsByQuery) in the order asked. A column header sorts by its field; the pager moves by the
 * answer's page tokens, as a list view's. While another page or order loads, the page shown stays, marked busy.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  getObjectInfoQuery,
  getRecordQuery,
  getRelatedListInfoQuery,
  getRelatedListRecordsByQueryQuery,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate, PageLink } from '../../location';
import { displayText, fieldAt } from '../fields';
import { ListPager } from '../list/ListPager';
import { LIST_PAGE_SIZE } from '../list/ListViewTable';
import { ariaSortOf, nextSortBy, sortOf, type ColumnSort } from '../list/sorting';
import { objectHomeHref, recordHref, relatedListHref, type Route } from '../routes';
import { LoadError, Loading, Message, RecordNotFound, isUnknownRecord } from '../states';

type RelatedRoute = Extract<Route, { kind: 'related' }>;

export function RelatedListPage({ route }: { route: RelatedRoute }) {
  const api = useApiClient();
  const { objectApiName, recordId, relatedListId, sortBy, pageToken } = route;
  const info = useQuery(getRelatedListInfoQuery(api, { path: { parentObjectApiName: objectApiName, relatedListId } }));
  const records = useQuery({
    ...getRelatedListRecordsByQueryQuery(api, {
      path: { parentRecordId: recordId, relatedListId },
      query: { pageSize: LIST_PAGE_SIZE, ...(pageToken && { pageToken }), ...(sortBy && { sortBy }) },
    }),
    placeholderData: keepPreviousData,
  });
  const parent = useParentName(objectApiName, recordId);

  if (info.isPending) return <Loading what="the related list" />;
  if (info.isError && isUnknownRecord(info.error))
    return (
      <Message heading="Related list not found" tone="error">
        {objectApiName} has no related list named {relatedListId}, or you cannot see it.
      </Message>
    );
  if (info.isError) return <LoadError what="The related list" error={info.error} />;
  if (records.isError && !records.data && isUnknownRecord(records.error))
    return <RecordNotFound objectApiName={objectApiName} />;

  const { displayColumns, orderedByInfo, label } = info.data;
  const sort: ColumnSort | undefined =
    sortOf(sortBy) ??
    (orderedByInfo[0] && { fieldApiName: orderedByInfo[0].fieldApiName, ascending: orderedByInfo[0].isAscending });
  const sortedLabel = displayColumns.find((column) => column.fieldApiName === sort?.fieldApiName)?.label;
  const page = records.data;
  const hrefFor = (options: { sortBy?: string; pageToken?: string }) =>
    relatedListHref(objectApiName, recordId, relatedListId, options);

  return (
    <section className="bo-list__view" aria-labelledby="bo-list-heading">
      <nav aria-label="Breadcrumbs">
        <ol className="bo-breadcrumbs">
          <li>
            <PageLink href={objectHomeHref(objectApiName)}>{parent.objectLabel}</PageLink>
          </li>
          <li>
            <PageLink href={recordHref(objectApiName, recordId)}>{parent.name}</PageLink>
          </li>
        </ol>
      </nav>
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
                          <PageLink href={recordHref(record.apiName, record.id)}>{text || record.id}</PageLink>
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

/** How many records the page shows, with a + when more follow it: "50+ items". */
function itemsShown(page: { count: number; nextPageToken?: string | null }): string {
  return `${page.count}${page.nextPageToken ? '+' : ''} ${page.count === 1 && !page.nextPageToken ? 'item' : 'items'}`;
}

/**
 * The parent's object label and the parent record's name (its object's name field, getObjectInfo then
 * getRecord), for the way back; the API name and the id until they come, or without them.
 */
function useParentName(objectApiName: string, recordId: string): { objectLabel: string; name: string } {
  const api = useApiClient();
  const objectInfo = useQuery(getObjectInfoQuery(api, { path: { objectApiName } }));
  const nameField = objectInfo.data?.nameFields[0];
  const record = useQuery({
    ...getRecordQuery(api, { path: { recordId }, query: { optionalFields: `${objectApiName}.${nameField}` } }),
    enabled: nameField !== undefined,
  });
  const name = record.data && nameField ? displayText(fieldAt(record.data, nameField)) : '';
  return { objectLabel: objectInfo.data?.labelPlural ?? objectApiName, name: name || recordId };
}
