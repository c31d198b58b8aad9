/**
 * A modal dialog of the back office (the list view controls' dialogs, the question before a delete, a quick
 * action): the browser's own, opened with showModal when it is drawn (the rest of the page inert), the focus
 * first where the dialog puts it, kept inside it (Tab and Shift+Tab go round its own controls, never out to the
 * browser's), and back on what opened it when it goes. Escape asks the page to close it (onClose), unless it is busy.
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject, type SyntheticEvent } from 'react';

/** The controls Tab goes round. */
const CONTROLS = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

interface ModalDialog {
  /** Where the focus goes first (by default, the browser's choice). */
  focusFirst?: (dialog: HTMLDialogElement) => void;
  /** Closes the dialog: the page stops drawing it. */
  onClose: () => void;
  /** While true (a save under way), Escape does not close it. */
  busy?: boolean;
}

/** The dialog element's props: spread them on the <dialog>. */
export function useModalDialog({ focusFirst, onClose, busy = false }: ModalDialog): {
  ref: RefObject<HTMLDialogElement | null>;
  onKeyDown: (event: KeyboardEvent<HTMLDialogElement>) => void;
  onCancel: (event: SyntheticEvent<HTMLDialogElement>) => void;
} {
  const dialog = useRef<HTMLDialogElement>(null);
  const focusFirstRef = useRef(focusFirst);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    focusFirstRef.current?.(element);
    return () => {
      if (element.open) element.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>(CONTROLS)];
    if (controls.length === 0) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  // Escape: the browser would close the dialog itself; the page closes it, so that its state agrees.
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (!busy) onClose();
  };
  return { ref: dialog, onKeyDown, onCancel };
}
