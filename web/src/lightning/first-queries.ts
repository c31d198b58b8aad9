/**
 * The queries a back-office screen asks for as soon as it is shown, for the server to answer in the screen's
 * document (web/ssr/back-office.ts): the selected app of the frame around every screen (its tabs); on a list
 * view the object's list views, its create actions, the Recently Viewed list's metadata and the named view's
 * metadata, first page of records and preferences; on a record page its record UI. The browser starts from their
 * answers rather than asking for them once its script has run, so that the first screen it paints is whole. Each
 * is built by the screen's own query function, so that its key is the one the screen reads. (The selected app's
 * answers are never kept, x-cache-ttl 0: the browser asks for it again once the frame is shown.)
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../../../client/index';
import { getSelectedAppQuery } from '../../../generated/queries';
import { objectHomeQueries } from './list/ListViewPage';
import { namedViewQueries } from './list/ListViewTable';
import { recordUiQuery } from './record/RecordPage';
import { RECENT_LIST_VIEW, type Route } from './routes';
import { SELECTED_APP_INPUT } from './shell/apps';

/** Asks for the route's first queries, all at once; each that fails is left for the browser to ask again. */
export async function prefetchFirstQueries(queryClient: QueryClient, api: ApiClient, route: Route): Promise<void> {
  const asked: Promise<void>[] = [queryClient.prefetchQuery(getSelectedAppQuery(api, SELECTED_APP_INPUT))];
  if (route.kind === 'list') {
    const { objectApiName, filterName, sortBy, pageToken } = route;
    const { lists, createActions, recent } = objectHomeQueries(api, objectApiName);
    asked.push(queryClient.prefetchQuery(lists), queryClient.prefetchQuery(createActions));
    asked.push(queryClient.prefetchQuery(recent));
    if (filterName && filterName !== RECENT_LIST_VIEW) {
      const [info, records, preferences] = namedViewQueries(api, {
        objectApiName,
        listViewApiName: filterName,
        sortBy,
        pageToken,
      });
      asked.push(queryClient.prefetchQuery(info), queryClient.prefetchQuery(records));
      asked.push(queryClient.prefetchQuery(preferences));
    }
  }
  if (route.kind === 'record') asked.push(queryClient.prefetchQuery(recordUiQuery(api, route.recordId)));
  await Promise.all(asked);
}
