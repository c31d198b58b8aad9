/**
 * The "Still there?" dialog: a modal <dialog> (the rest of the page inert), labelled by its title and
 * described by its text; Tab and Shift+Tab stay inside it; Escape is Close; on closing, focus goes back
 * to where it was.
 */
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { SESSION_TEXT } from './messages';
import { formatCountdown } from './timing';

export interface StillThereDialogProps {
  open: boolean;
  secondsLeft: number;
  busy: boolean;
  onClose(): void;
  onLogOut(): void;
  onContinue(): void;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function StillThereDialog({ open, secondsLeft, busy, onClose, onLogOut, onContinue }: StillThereDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const continueRef = useRef<HTMLButtonElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const active = document.activeElement;
      returnFocusRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
      dialog.showModal();
      continueRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      const target = returnFocusRef.current;
      returnFocusRef.current = null;
      if (target?.isConnected) target.focus();
    }
  }, [open]);

  useEffect(
    () => () => {
      if (dialogRef.current?.open) dialogRef.current.close();
    },
    [],
  );

  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const focusable = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      className="session-dialog"
      aria-labelledby={titleId}
      aria-describedby={textId}
      aria-modal="true"
      onKeyDown={trapFocus}
      onCancel={(event) => {
        // Escape: Close, through the same path as the button (the dialog closes when told to).
        event.preventDefault();
        onClose();
      }}
      onClose={() => {
        // Closed by the browser itself (a repeated Escape is not always cancelable): the state follows.
        if (open) onClose();
      }}
    >
      <div className="session-dialog__header">
        <h2 id={titleId} className="session-dialog__title">
          {SESSION_TEXT.warningTitle}
        </h2>
        <button
          type="button"
          className="session-dialog__close"
          aria-label={SESSION_TEXT.close}
          title={SESSION_TEXT.close}
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p id={textId} className="session-dialog__text">
        {SESSION_TEXT.warningText}
      </p>
      <p className="session-dialog__countdown">
        Time left: <span role="timer">{formatCountdown(secondsLeft)}</span>
      </p>
      <div className="session-dialog__actions">
        <button type="button" className="button button--neutral" disabled={busy} onClick={onLogOut}>
          {SESSION_TEXT.logOut}
        </button>
        <button ref={continueRef} type="button" className="button button--brand" disabled={busy} onClick={onContinue}>
          {SESSION_TEXT.continueWorking}
        </button>
      </div>
    </dialog>
  );
}
