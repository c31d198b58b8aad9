/**
 * The session validator, one of the page's hidden regions (docs/product-spec.md §2, §8): loaded for
 * signed-in users only. It runs the SessionMonitor and shows its "Still there?" dialog.
 */
import { useEffect, useMemo, useState } from 'react';
import type { SessionRepresentation } from '../../../client/queries';
import type { SessionChannel, SignOutReason } from './channel';
import { SessionMonitor, type MonitorView } from './monitor';
import { useApiClient } from '../api-client';
import { isInvalidSession, sessionActions } from './session-api';
import { StillThereDialog } from './StillThereDialog';

export interface SessionValidatorProps {
  channel: SessionChannel<SessionRepresentation>;
  onSession(session: SessionRepresentation): void;
  onSignedOut(reason: SignOutReason): void;
}

export default function SessionValidator({ channel, onSession, onSignedOut }: SessionValidatorProps) {
  const api = useApiClient();
  const actions = useMemo(() => sessionActions(api), [api]);
  const [view, setView] = useState<MonitorView>({ open: false, secondsLeft: 0, busy: false });
  const [monitor, setMonitor] = useState<SessionMonitor<SessionRepresentation> | null>(null);

  useEffect(() => {
    const next = new SessionMonitor<SessionRepresentation>({
      api: actions,
      channel,
      isInvalidSession,
      onView: setView,
      onSession,
      onSignedOut,
    });
    setMonitor(next);
    void next.start();
    const onVisible = () => {
      if (document.visibilityState === 'visible') next.resync();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      next.dispose();
    };
  }, [actions, channel, onSession, onSignedOut]);

  return (
    <StillThereDialog
      open={view.open}
      secondsLeft={view.secondsLeft}
      busy={view.busy}
      onClose={() => monitor?.close()}
      onLogOut={() => void monitor?.logOut()}
      onContinue={() => void monitor?.continueWorking()}
    />
  );
}
