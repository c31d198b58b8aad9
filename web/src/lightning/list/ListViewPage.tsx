/**
 * An object's home and its list views (/lightning/o/{objectApiName}/list?filterName=…): the picker of the
 * object's list views (getListInfosByObjectName, and the Recently Viewed list: getMruListInfo, `__Recent`) and
 * the chosen one's records, with New where the user may create the object's records (its New among
 * getObjectCreateActions), the list view controls (ListViewControls) and Export, a link to the view's CSV export
 * in the order shown (listExportHref), and Import, where the user may create records, the screen that imports a
 * CSV file of them (importHref). Without a filterName, the object's first list view.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  getListInfosByObjectNameQuery,
  getMruListInfoQuery,
  getObjectCreateActionsQuery,
} from '../../../../generated/queries';
import type { ApiClient } from '../../../../client/index';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { importHref, listExportHref, newRecordHref, RECENT_LIST_VIEW, type Route } from '../routes';
import { LoadError, Loading, Message } from '../states';
import { ListViewPicker } from './ListViewPicker';
import { ListViewControls } from './ListViewControls';
import { ListViewTable, prefetchNamedView, useListInfo } from './ListViewTable';

type ListRoute = Extract<Route, { kind: 'list' }>;

/** Every list view of an object on one page of the picker: the platform allows 2,000 a page. */
const LIST_VIEWS_PAGE_SIZE = 200;

/** The queries of an object's home: its list views, its create actions (for New), the Recently Viewed list's metadata. */
export function objectHomeQueries(api: ApiClient, objectApiName: string) {
  return {
    lists: getListInfosByObjectNameQuery(api, { path: { objectApiName }, query: { pageSize: LIST_VIEWS_PAGE_SIZE } }),
    createActions: getObjectCreateActionsQuery(api, { path: { objectApiName }, query: { formFactor: 'Large' } }),
    recent: getMruListInfoQuery(api, { path: { objectApiName } }),
  };
}

export function ListViewPage({ route }: { route: ListRoute }) {
  const api = useApiClient();
  const { objectApiName } = route;
  const home = objectHomeQueries(api, objectApiName);
  const lists = useQuery(home.lists);
  const createActions = useQuery(home.createActions);
  const recent = useQuery(home.recent);
  // The view the address names starts loading beside the list of views, whose answer the table waits for.
  const queryClient = useQueryClient();
  const { filterName, sortBy, pageToken } = route;
  useEffect(() => {
    if (!filterName || filterName === RECENT_LIST_VIEW) return;
    prefetchNamedView(queryClient, api, { objectApiName, listViewApiName: filterName, sortBy, pageToken });
  }, [api, queryClient, objectApiName, filterName, sortBy, pageToken]);
  const mayCreate = createActions.data?.actions[objectApiName]?.actions.some((action) => action.apiName === 'New');
  if (lists.isPending) return <Loading what="the list views" />;
  if (lists.isError) return <LoadError what="The list views" error={lists.error} />;
  if (route.filterName === RECENT_LIST_VIEW && recent.isPending) return <Loading what="the list view" />;
  if (route.filterName === RECENT_LIST_VIEW && recent.isError)
    return <LoadError what="The list view" error={recent.error} />;
  // Given a list view's id rather than an object's name the operation answers that view alone; here it is given
  // an object's name, and answers the object's list views.
  const named = 'lists' in lists.data ? lists.data.lists.filter((list) => list.apiName) : [];
  // Recently Viewed among the others by its label, as the platform's picker lists it, once its metadata is in.
  const views = recent.data?.label
    ? [...named, { apiName: RECENT_LIST_VIEW, label: recent.data.label }].sort((a, b) =>
        a.label.localeCompare(b.label, 'en'),
      )
    : named;
  const current = views.find((view) => view.apiName === route.filterName) ?? (route.filterName ? undefined : named[0]);
  if (!current)
    return (
      <Message heading="List view not found" tone="error">
        {route.filterName
          ? `This object has no list view named ${route.filterName}, or you cannot see it.`
          : 'This object has no list view you can see.'}
      </Message>
    );
  return (
    <div className="bo-list">
      <div className="bo-list__bar">
        <ListViewPicker key={current.apiName} objectApiName={objectApiName} views={views} current={current.apiName} />
        <CurrentViewControls
          key={`controls ${current.apiName}`}
          objectApiName={objectApiName}
          listViewApiName={current.apiName}
        />
        {/* A download, not a screen: a plain link the browser saves, named by the server's answer. */}
        <a
          className="bo-button"
          href={listExportHref(objectApiName, current.apiName, { sortBy: route.sortBy })}
          download
          aria-label={`Export ${current.label} as CSV`}
        >
          Export
        </a>
        {mayCreate && (
          <PageLink className="bo-button" href={importHref(objectApiName)}>
            Import
          </PageLink>
        )}
        {mayCreate && (
          <PageLink className="bo-button bo-button--brand" href={newRecordHref(objectApiName)}>
            New
          </PageLink>
        )}
      </div>
      {/* Keyed by the view: another view's records are never shown in this one's columns while it loads. */}
      <ListViewTable
        key={current.apiName}
        objectApiName={objectApiName}
        listViewApiName={current.apiName}
        sortBy={route.sortBy}
        pageToken={route.pageToken}
      />
    </div>
  );
}

/** The controls of the list view shown, once its metadata (its rights) is known. */
function CurrentViewControls({ objectApiName, listViewApiName }: { objectApiName: string; listViewApiName: string }) {
  const info = useListInfo(objectApiName, listViewApiName);
  return <ListViewControls objectApiName={objectApiName} info={info.data} />;
}
