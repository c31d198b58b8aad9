/**
 * A modal dialog of the list view controls, as the record page's delete question is one: the browser's own
 * (showModal, the rest of the page inert), the focus kept inside it (Tab and Shift+Tab go round its controls),
 * first on its first field (or, with no field, its safe button), Escape or Cancel closing it unless it is
 * busy, and the focus back on what opened it afterwards.
 */
import type { ReactNode } from 'react';
import { errorMessageOf, isApiError } from '../../../../client/index';
import { useModalDialog } from '../modal-dialog';

export function ListDialog({
  id,
  heading,
  description,
  busy = false,
  wide = false,
  onClose,
  children,
}: {
  /** Prefix of the heading's id, unique on the page. */
  id: string;
  heading: string;
  description?: ReactNode;
  busy?: boolean;
  wide?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialogProps = useModalDialog({
    onClose,
    busy,
    focusFirst: (element) => {
      const first =
        element.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled])') ??
        element.querySelector<HTMLElement>('[data-safe]');
      first?.focus();
    },
  });

  return (
    <dialog
      className={`bo-dialog${wide ? ' bo-dialog--wide' : ''}`}
      aria-labelledby={`${id}-heading`}
      aria-describedby={description ? `${id}-description` : undefined}
      {...dialogProps}
    >
      <h2 id={`${id}-heading`} className="bo-dialog__heading">
        {heading}
      </h2>
      {description && <p id={`${id}-description`}>{description}</p>}
      {children}
    </dialog>
  );
}

/** A failed write in the API's words, in a dialog. */
export function DialogProblem({ what, message }: { what: string; message: string }) {
  return (
    <div className="bo-state bo-state--error" role="alert">
      <p>
        {what} {message}
      </p>
    </div>
  );
}

/** A failed write in the API's words, else that the server did not answer. */
export function problemOf(error: unknown): string {
  if (isApiError(error) && error.status !== 0) return errorMessageOf(error.body);
  return 'The server did not answer: check the connection and try again.';
}
