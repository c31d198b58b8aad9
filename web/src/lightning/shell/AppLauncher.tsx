/**
 * The app launcher: a button that shows the user's apps (getApps), the selected one marked. Choosing another
 * selects it (selectApp), which the platform remembers for the user, and opens its first tab; the header then
 * shows its tabs. A disclosure: the button says whether the list is open, and opening it puts the focus on the
 * selected app; Escape or a click elsewhere closes it, Escape giving the focus back to the button.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { components } from '../../../../client/index';
import { errorMessageOf, isApiError } from '../../../../client/index';
import { getAppsQuery, getSelectedAppQuery, selectAppMutation } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate } from '../../location';
import { LoadError, Loading } from '../states';
import { APPS_INPUT, firstScreenOf, SELECTED_APP_INPUT } from './apps';

type App = components['schemas']['AppRepresentation'];

export function AppLauncher({ selectedAppId }: { selectedAppId?: string }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  // The apps are asked for once the list is first opened, not on every screen.
  const [wanted, setWanted] = useState(false);
  const apps = useQuery({ ...getAppsQuery(api, APPS_INPUT), enabled: wanted });
  const select = useMutation(selectAppMutation(api, queryClient));
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  const close = (focusButton: boolean) => {
    setOpen(false);
    select.reset();
    if (focusButton) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    // The focus goes to the selected app, from where Tab and Shift+Tab reach the others.
    (
      panel.current?.querySelector<HTMLElement>('button[aria-current="true"]') ??
      panel.current?.querySelector<HTMLElement>('button')
    )?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, apps.isSuccess]);

  const choose = (app: App) => {
    if (select.isPending) return;
    if (app.appId === selectedAppId) return close(true);
    select.mutate(
      { path: { appId: app.appId }, ...SELECTED_APP_INPUT },
      {
        onSuccess: (selected) => {
          // The answer is the selected app, with the user's own items: the header shows its tabs at once.
          queryClient.setQueryData(getSelectedAppQuery(api, SELECTED_APP_INPUT).queryKey, selected);
          const href = firstScreenOf(selected);
          const here = window.location.pathname + window.location.search;
          close(!href || href === here);
          if (href && href !== here) navigate(href);
        },
      },
    );
  };

  return (
    <div className="bo-apps">
      <button
        ref={button}
        type="button"
        className="bo-apps__button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setWanted(true);
          if (open) close(false);
          else setOpen(true);
        }}
      >
        <span className="bo-apps__icon" aria-hidden="true">
          ⠿
        </span>
        App Launcher
      </button>
      <div
        ref={panel}
        id={panelId}
        className="bo-apps__panel"
        hidden={!open}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            close(true);
          }
        }}
      >
        {open && (
          <>
            <h2 className="bo-apps__heading">Apps</h2>
            {apps.isPending ? (
              <Loading what="the apps" />
            ) : apps.isError ? (
              <LoadError what="The apps" error={apps.error} />
            ) : (
              <ul className="bo-apps__list">
                {apps.data.apps.map((app) => (
                  <li key={app.appId}>
                    <button
                      type="button"
                      className="bo-apps__app"
                      aria-current={app.appId === selectedAppId ? 'true' : undefined}
                      aria-describedby={`${panelId}-${app.appId}`}
                      aria-disabled={select.isPending || undefined}
                      onClick={() => choose(app)}
                    >
                      {app.label}
                    </button>
                    <p id={`${panelId}-${app.appId}`} className="bo-apps__description">
                      {app.description}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            {select.isPending && (
              <p className="bo-state" role="status">
                Opening the app…
              </p>
            )}
            {select.isError && (
              <p className="bo-state bo-state--error" role="alert">
                The app could not be opened.{' '}
                {isApiError(select.error) && select.error.status !== 0
                  ? errorMessageOf(select.error.body)
                  : 'The server did not answer: check the connection and try again.'}
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
