/** The back office: the app's frame around the screen the address names. */
import { lazy, Suspense } from 'react';
import { useLocation } from '../location';
import { useFocusMainOnNewScreen } from './focus';
import { EditRecordPage } from './form/EditRecordPage';
import { NewRecordPage } from './form/NewRecordPage';
import { ListViewPage } from './list/ListViewPage';
import { RecordPage } from './record/RecordPage';
import { RelatedListPage } from './related/RelatedListPage';
import { routeOf } from './routes';
import { SearchPage } from './search/SearchPage';
import { Shell } from './shell/Shell';
import { StartPage } from './shell/StartPage';
import { Loading, Message } from './states';

// Loaded apart: a record's copy is made seldom, and its form's code stays out of the back office's first load.
const CloneRecordPage = lazy(() =>
  import('./form/CloneRecordPage').then((module) => ({ default: module.CloneRecordPage })),
);

// Loaded apart too: an import is seldom, and its screen is the back office's own.
const ImportPage = lazy(() => import('./import/ImportPage').then((module) => ({ default: module.ImportPage })));

export function App() {
  const { pathname, search } = useLocation();
  const route = routeOf(pathname, search);
  // Another list view is another screen too; its order and page are not.
  const filterName = route.kind === 'list' ? route.filterName : undefined;
  useFocusMainOnNewScreen(`${pathname} ${filterName ?? ''}`);
  return (
    <Shell
      currentObject={'objectApiName' in route ? route.objectApiName : undefined}
      searchTerm={route.kind === 'search' ? route.searchTerm : undefined}
    >
      {route.kind === 'list' && <ListViewPage key={route.objectApiName} route={route} />}
      {route.kind === 'record' && <RecordPage key={route.recordId} route={route} />}
      {route.kind === 'related' && <RelatedListPage key={`${route.recordId} ${route.relatedListId}`} route={route} />}
      {route.kind === 'edit' && <EditRecordPage key={route.recordId} route={route} />}
      {route.kind === 'clone' && (
        <Suspense fallback={<Loading what="the form" />}>
          <CloneRecordPage key={route.recordId} route={route} />
        </Suspense>
      )}
      {route.kind === 'new' && (
        <NewRecordPage key={`${route.objectApiName} ${route.recordTypeId ?? ''}`} route={route} />
      )}
      {route.kind === 'import' && (
        <Suspense fallback={<Loading what="the import" />}>
          <ImportPage key={route.objectApiName} route={route} />
        </Suspense>
      )}
      {route.kind === 'search' && <SearchPage searchTerm={route.searchTerm} />}
      {route.kind === 'start' && <StartPage />}
      {route.kind === 'unknown' && (
        <Message heading="Page not found" tone="error">
          The back office has no page at this address.
        </Message>
      )}
    </Shell>
  );
}
