/** /lightning alone: the selected app's first tab, in place of the bare address (as the platform opens an app). */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getAppsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { replaceLocation } from '../../location';
import { DEFAULT_OBJECT, objectHomeHref } from '../routes';
import { Loading } from '../states';
import { selectedApp, tabsOf } from './apps';

export function StartPage() {
  const api = useApiClient();
  const apps = useQuery(getAppsQuery(api, { query: { formFactor: 'Large' } }));
  useEffect(() => {
    if (apps.isPending) return;
    const app = apps.data ? selectedApp(apps.data) : undefined;
    const first = app ? tabsOf(app)[0] : undefined;
    replaceLocation(first?.href ?? objectHomeHref(DEFAULT_OBJECT));
  }, [apps.isPending, apps.data]);
  return <Loading what="the app" />;
}
