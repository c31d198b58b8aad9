/**
 * The visitor's session, for the whole page: the user data provider (user-data.tsx) takes isGuest and
 * the user id from the server's getSession answer (fetched during server rendering and hydrated, so both
 * sides render the same), the session validator is loaded for signed-in users only, and the timeout
 * toast is announced in a live region.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { SessionRepresentation } from '../../../client/queries';
import { sessionQuery as sessionQueryOf } from './session-query';
import { useApiClient } from '../api-client';
import { GUEST, UserDataProvider, type UserData } from '../user-data';
import { broadcastSessionChannel, type SessionChannel, type SignOutReason } from './channel';
import { onInvalidSession } from './invalid-session';
import type { SessionActions } from './session-api';
import { SessionToast } from './SessionToast';

const SessionValidator = lazy(() => import('./SessionValidator'));

export interface SessionContextValue {
  /** The server's latest answer; undefined until there is one (or when it failed: the page is a guest's). */
  session: SessionRepresentation | undefined;
  /** The session operations, loaded when first needed (they are not part of the page's first script). */
  loadActions(): Promise<SessionActions>;
  channel: SessionChannel<SessionRepresentation>;
  /** The footer's Log out: signs out here and in the other tabs. */
  logOut(): Promise<void>;
}

const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}

let pageChannel: SessionChannel<SessionRepresentation> | undefined;
const noChannel: SessionChannel<SessionRepresentation> = { post: () => {}, subscribe: () => () => {} };

function sessionChannel(): SessionChannel<SessionRepresentation> {
  if (typeof window === 'undefined') return noChannel;
  return (pageChannel ??= broadcastSessionChannel<SessionRepresentation>());
}

/** What the page shows until the server's guest answer arrives. */
function asGuest(session: SessionRepresentation): SessionRepresentation {
  return {
    ...session,
    isGuest: true,
    userName: null,
    displayName: null,
    idleExpiresAt: null,
    warnAt: null,
    absoluteExpiresAt: null,
    idleTimeoutSeconds: null,
  };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const sessionQuery = useMemo(() => sessionQueryOf(api), [api]);
  const { data: session } = useQuery(sessionQuery);
  const [toast, setToast] = useState(false);
  // The validator runs in the browser only, after hydration.
  const [hydrated, setHydrated] = useState(false);
  const loadActions = useMemo(() => {
    let loading: Promise<SessionActions> | undefined;
    return () => (loading ??= import('./session-api').then((module) => module.sessionActions(api)));
  }, [api]);
  const channel = useMemo(sessionChannel, []);
  const key = sessionQuery.queryKey;

  const setSession = useCallback(
    (next: SessionRepresentation) => queryClient.setQueryData(key, next),
    [queryClient, key],
  );

  const becomeGuest = useCallback(
    (reason: SignOutReason) => {
      const current = queryClient.getQueryData(key);
      if (current && !current.isGuest) queryClient.setQueryData(key, asGuest(current));
      if (reason === 'timeout') setToast(true);
      void queryClient.invalidateQueries({ queryKey: key });
    },
    [queryClient, key],
  );

  useEffect(() => setHydrated(true), []);

  useEffect(
    () =>
      channel.subscribe((message) => {
        if (message.type !== 'signed-in') return;
        setToast(false);
        void queryClient.invalidateQueries({ queryKey: key });
      }),
    [channel, queryClient, key],
  );

  useEffect(
    () =>
      onInvalidSession(() => {
        const current = queryClient.getQueryData(key);
        if (!current || current.isGuest) return;
        channel.post({ type: 'signed-out', reason: 'timeout' });
        becomeGuest('timeout');
      }),
    [channel, queryClient, key, becomeGuest],
  );

  const logOut = useCallback(async () => {
    await loadActions()
      .then((actions) => actions.signOut())
      .catch(() => undefined);
    channel.post({ type: 'signed-out', reason: 'logout' });
    becomeGuest('logout');
  }, [loadActions, channel, becomeGuest]);

  const value = useMemo(() => ({ session, loadActions, channel, logOut }), [session, loadActions, channel, logOut]);
  const signedIn = session !== undefined && !session.isGuest;
  const userId = signedIn ? session.userId : null;
  const user = useMemo<UserData>(() => (userId === null ? GUEST : { isGuest: false, userId }), [userId]);

  return (
    <SessionContext.Provider value={value}>
      <UserDataProvider value={user}>
        {children}
        {hydrated && signedIn ? (
          <Suspense fallback={null}>
            <SessionValidator key={session.userId} channel={channel} onSession={setSession} onSignedOut={becomeGuest} />
          </Suspense>
        ) : null}
        <SessionToast visible={toast} onDismiss={() => setToast(false)} />
      </UserDataProvider>
    </SessionContext.Provider>
  );
}
