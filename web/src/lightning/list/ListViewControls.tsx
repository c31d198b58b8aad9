/**
 * The list view controls, as the platform's list views have them behind one button: New (createListInfo: a
 * label, an API name, who sees it), Rename and Edit filters (updateListInfoByName) and Delete (deleteListInfo,
 * asked first). Each is offered only where the API would allow it: New where the list object info says the
 * user may create list views (createable; Public only with publicOrSharedCreatable), Rename and Edit filters
 * where the list info is updateable, Delete where it is deletable. The Recently Viewed list is neither.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  createListInfoMutation,
  deleteListInfoMutation,
  getListObjectInfoQuery,
  updateListInfoByNameMutation,
} from '../../../../generated/queries';
import type { Schemas } from '../../../../generated/types';
import { useApiClient } from '../../api-client';
import { navigate } from '../../location';
import { listHref, objectHomeHref } from '../routes';
import { FilterDialog } from './FilterDialog';
import { apiNameOf } from './filters';
import { DialogProblem, ListDialog, problemOf } from './ListDialog';

type ListInfo = Schemas['ListInfoRepresentation'];
type ListObjectInfo = Schemas['ListObjectInfoRepresentation'];
type Visibility = NonNullable<Schemas['ListInfoPostInputRepresentation']['visibility']>;
type Choice = 'new' | 'rename' | 'filters' | 'delete';

export function ListViewControls({ objectApiName, info }: { objectApiName: string; info: ListInfo | undefined }) {
  const api = useApiClient();
  const objectInfo = useQuery(getListObjectInfoQuery(api, { path: { objectApiName } }));
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState<Choice | null>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const hadDialog = useRef(false);

  // The focus goes back to the controls' button when a dialog closes (the menu item that opened it is gone).
  useEffect(() => {
    if (choice) hadDialog.current = true;
    else if (hadDialog.current) {
      hadDialog.current = false;
      toggle.current?.focus();
    }
  }, [choice]);

  // Offered once the object's list info is in: a menu whose items came in later would move under the user.
  if (objectInfo.isPending) return null;
  const offered: { choice: Choice; label: string }[] = [];
  if (objectInfo.data?.createable) offered.push({ choice: 'new', label: 'New' });
  if (info?.updateable)
    offered.push({ choice: 'rename', label: 'Rename' }, { choice: 'filters', label: 'Edit filters' });
  if (info?.deletable) offered.push({ choice: 'delete', label: 'Delete' });
  if (offered.length === 0) return null;

  const choose = (chosen: Choice) => {
    setOpen(false);
    setChoice(chosen);
  };
  const onMenuKeyDown = (event: KeyboardEvent) => {
    if (open && event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    }
  };
  const close = () => setChoice(null);

  return (
    <>
      <div
        className="bo-list__controls"
        onKeyDown={onMenuKeyDown}
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
        }}
      >
        <button
          ref={toggle}
          type="button"
          className="bo-button"
          aria-expanded={open}
          aria-controls="bo-list-controls"
          onClick={() => setOpen(!open)}
        >
          List view controls
        </button>
        {open && (
          <ul id="bo-list-controls" className="bo-menu" aria-label="List view controls">
            {offered.map((item) => (
              <li key={item.choice}>
                <button type="button" onClick={() => choose(item.choice)}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {/* Beside the controls, not in them: a key in a dialog is the dialog's alone. */}
      {choice === 'new' && objectInfo.data && (
        <NameDialog objectApiName={objectApiName} objectInfo={objectInfo.data} onClose={close} />
      )}
      {choice === 'rename' && info && <NameDialog objectApiName={objectApiName} info={info} onClose={close} />}
      {choice === 'filters' && info && objectInfo.data && (
        <FilterDialog objectApiName={objectApiName} info={info} objectInfo={objectInfo.data} onClose={close} />
      )}
      {choice === 'delete' && info && <DeleteListDialog objectApiName={objectApiName} info={info} onClose={close} />}
    </>
  );
}

/** The view a write names: its API name, known for every list view but the Recently Viewed one. */
const apiNameOfView = (info: ListInfo) => info.listReference.listViewApiName ?? '';

/** New (with objectInfo) or Rename (with info): a label, and for a new one its API name and who sees it. */
function NameDialog({
  objectApiName,
  objectInfo,
  info,
  onClose,
}: {
  objectApiName: string;
  objectInfo?: ListObjectInfo;
  info?: ListInfo;
  onClose: () => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const creating = info === undefined;
  const [label, setLabel] = useState(info?.label ?? '');
  const [apiName, setApiName] = useState('');
  const [apiNameEdited, setApiNameEdited] = useState(false);
  const [visibility, setVisibility] = useState<Visibility>('Private');
  const [blank, setBlank] = useState(false);
  const shownApiName = apiNameEdited ? apiName : apiNameOf(label);
  const create = useMutation({
    ...createListInfoMutation(api, queryClient),
    onSuccess: async (created, input, ...rest) => {
      await createListInfoMutation(api, queryClient).onSuccess?.(created, input, ...rest);
      navigate(listHref(objectApiName, created.listReference.listViewApiName ?? shownApiName));
    },
  });
  const rename = useMutation({
    ...updateListInfoByNameMutation(api, queryClient),
    onSuccess: async (...args) => {
      await updateListInfoByNameMutation(api, queryClient).onSuccess?.(...args);
      onClose();
    },
  });
  const write = creating ? create : rename;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!label.trim()) {
      setBlank(true);
      return;
    }
    if (info)
      rename.mutate({ path: { objectApiName, listViewApiName: apiNameOfView(info) }, body: { label: label.trim() } });
    else
      create.mutate({
        path: { objectApiName },
        body: {
          label: label.trim(),
          ...(shownApiName && { listViewApiName: shownApiName }),
          visibility,
          includeDefaultAttributes: true,
        },
      });
  };

  return (
    <ListDialog
      id="bo-list-name"
      heading={creating ? 'New list view' : 'Rename list view'}
      busy={write.isPending}
      onClose={onClose}
    >
      <form className="bo-form" onSubmit={onSubmit} noValidate>
        <div className={`bo-form-field${blank ? ' bo-form-field--invalid' : ''}`}>
          <label className="bo-form-field__label" htmlFor="bo-list-label">
            <abbr className="bo-required" title="required">
              *
            </abbr>{' '}
            List name
          </label>
          <input
            id="bo-list-label"
            value={label}
            maxLength={40}
            required
            aria-invalid={blank || undefined}
            aria-describedby={blank ? 'bo-list-label-error' : undefined}
            onChange={(event) => {
              setLabel(event.target.value);
              setBlank(false);
            }}
          />
          {blank && (
            <p id="bo-list-label-error" className="bo-form-field__error">
              Enter a name for the list view.
            </p>
          )}
        </div>
        {creating && (
          <>
            <div className="bo-form-field">
              <label className="bo-form-field__label" htmlFor="bo-list-api-name">
                List API name
              </label>
              <input
                id="bo-list-api-name"
                value={shownApiName}
                maxLength={80}
                onChange={(event) => {
                  setApiName(event.target.value);
                  setApiNameEdited(true);
                }}
              />
            </div>
            <fieldset className="bo-form-field">
              <legend className="bo-form-field__label">Who sees this list view?</legend>
              <div className="bo-choices">
                <label className="bo-choice">
                  <input
                    type="radio"
                    name="visibility"
                    checked={visibility === 'Private'}
                    onChange={() => setVisibility('Private')}
                  />
                  Only I can see this list view
                </label>
                {objectInfo?.publicOrSharedCreatable && (
                  <label className="bo-choice">
                    <input
                      type="radio"
                      name="visibility"
                      checked={visibility === 'Public'}
                      onChange={() => setVisibility('Public')}
                    />
                    All users can see this list view
                  </label>
                )}
              </div>
            </fieldset>
          </>
        )}
        {write.isError && (
          <DialogProblem
            what={creating ? 'The list view was not created.' : 'The list view was not renamed.'}
            message={problemOf(write.error)}
          />
        )}
        <div className="bo-dialog__actions">
          <button type="button" className="bo-button" data-safe onClick={onClose} disabled={write.isPending}>
            Cancel
          </button>
          <button type="submit" className="bo-button bo-button--brand" disabled={write.isPending}>
            {write.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </ListDialog>
  );
}

/** The question before a list view is deleted; on success the object's home, without the view. */
function DeleteListDialog({
  objectApiName,
  info,
  onClose,
}: {
  objectApiName: string;
  info: ListInfo;
  onClose: () => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const listViewApiName = apiNameOfView(info);
  const options = deleteListInfoMutation(api, queryClient);
  const remove = useMutation({
    ...options,
    onSuccess: (...args) => {
      // The view is gone: its page is left and its own reads dropped before the rest are made stale.
      navigate(objectHomeHref(objectApiName));
      queryClient.removeQueries({
        predicate: ({ queryKey: [, parameters] }) =>
          (parameters as { listViewApiName?: string } | undefined)?.listViewApiName === listViewApiName &&
          (parameters as { objectApiName?: string }).objectApiName === objectApiName,
      });
      return options.onSuccess?.(...args);
    },
  });
  return (
    <ListDialog
      id="bo-list-delete"
      heading="Delete list view"
      description={`Are you sure you want to delete the list view ${info.label ?? listViewApiName}? This cannot be undone.`}
      busy={remove.isPending}
      onClose={onClose}
    >
      {remove.isError && <DialogProblem what="The list view was not deleted." message={problemOf(remove.error)} />}
      <p className="visually-hidden" role="status">
        {remove.isPending ? 'Deleting…' : ''}
      </p>
      <div className="bo-dialog__actions">
        <button type="button" className="bo-button" data-safe onClick={onClose} disabled={remove.isPending}>
          Cancel
        </button>
        <button
          type="button"
          className="bo-button bo-button--danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ path: { objectApiName, listViewApiName } })}
        >
          {remove.isPending ? 'Deleting…' : 'Delete'}
        </button>
      </div>
    </ListDialog>
  );
}
