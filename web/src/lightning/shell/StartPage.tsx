/**
 * /lightning alone: the selected app's first tab (getSelectedApp), in place of the bare address (as the platform
 * opens an app).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getSelectedAppQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { replaceLocation } from '../../location';
import { DEFAULT_OBJECT, objectHomeHref } from '../routes';
import { Loading } from '../states';
import { firstScreenOf, SELECTED_APP_INPUT } from './apps';

export function StartPage() {
  const api = useApiClient();
  const app = useQuery(getSelectedAppQuery(api, SELECTED_APP_INPUT));
  useEffect(() => {
    if (app.isPending) return;
    replaceLocation((app.data && firstScreenOf(app.data)) ?? objectHomeHref(DEFAULT_OBJECT));
  }, [app.isPending, app.data]);
  return <Loading what="the app" />;
}
