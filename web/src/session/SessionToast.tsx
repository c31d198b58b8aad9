/**
 * The timeout toast. Its live region is always in the page, empty until there is something to say, so that
 * screen readers announce the message when it appears.
 */
import { SESSION_TEXT } from './messages';

export function SessionToast({ visible, onDismiss }: { visible: boolean; onDismiss: () => void }) {
  return (
    <div className="session-toast-region">
      <div role="alert" aria-atomic="true" className={visible ? 'session-toast' : undefined}>
        {visible ? <p className="session-toast__text">{SESSION_TEXT.timedOutToast}</p> : null}
      </div>
      {visible ? (
        <button type="button" className="session-toast__dismiss" aria-label="Dismiss" onClick={onDismiss}>
          <span aria-hidden="true">×</span>
        </button>
      ) : null}
    </div>
  );
}
