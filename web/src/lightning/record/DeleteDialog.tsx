/**
 * The question before a record is deleted: a modal dialog (the browser's own, opened with showModal, so that
 * the rest of the page is inert), whose focus stays inside it (Tab and Shift+Tab go round its buttons), which
 * Escape or Cancel closes, and after which the focus goes back to the button that opened it. Delete calls
 * deleteRecord; on success the page goes to the object's list, whose records the mutation made stale.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { deleteRecordMutation } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate } from '../../location';
import { objectHomeHref } from '../routes';
import { saveErrorsOf } from '../form/form-model';
import { useModalDialog } from '../modal-dialog';
import { readsOfRecord } from './record-reads';

export function DeleteDialog({
  objectApiName,
  objectLabel,
  recordId,
  recordName,
  onClose,
}: {
  objectApiName: string;
  objectLabel: string;
  recordId: string;
  recordName: string;
  onClose: () => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const options = deleteRecordMutation(api, queryClient);
  const remove = useMutation({
    ...options,
    onSuccess: (...args) => {
      // The record is gone: its page is left, and its own reads dropped, before the mutation makes the rest
      // stale (the lists), so that nothing asks for the record again and meets a 404.
      navigate(objectHomeHref(objectApiName));
      queryClient.removeQueries(readsOfRecord(recordId));
      return options.onSuccess?.(...args);
    },
  });
  const cancel = useRef<HTMLButtonElement>(null);
  // The safe choice first: Enter right away cancels.
  const dialogProps = useModalDialog({ onClose, busy: remove.isPending, focusFirst: () => cancel.current?.focus() });

  const confirm = () => remove.mutate({ path: { recordId } });
  const problems = remove.isError ? saveErrorsOf(remove.error, []) : null;

  return (
    <dialog
      className="bo-dialog"
      aria-labelledby="bo-delete-heading"
      aria-describedby="bo-delete-question"
      {...dialogProps}
    >
      <h2 id="bo-delete-heading" className="bo-dialog__heading">
        Delete {objectLabel}
      </h2>
      <p id="bo-delete-question">Are you sure you want to delete {recordName}? This cannot be undone.</p>
      {problems && (
        <div className="bo-state bo-state--error" role="alert">
          <p>The record was not deleted. {problems.top.join(' ')}</p>
        </div>
      )}
      <p className="visually-hidden" role="status">
        {remove.isPending ? 'Deleting…' : ''}
      </p>
      <div className="bo-dialog__actions">
        <button ref={cancel} type="button" className="bo-button" onClick={onClose} disabled={remove.isPending}>
          Cancel
        </button>
        <button type="button" className="bo-button bo-button--danger" onClick={confirm} disabled={remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </button>
      </div>
    </dialog>
  );
}
