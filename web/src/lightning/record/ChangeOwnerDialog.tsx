/**
 * Change Owner, run from a record page (the actions API offers it, ChangeOwner, to a user who may edit the
 * record and set its owner): a modal dialog with one field, the new owner, a lookup of users searched as the user
 * types (getLookupRecords on the object's OwnerId). Save writes the record's OwnerId with updateRecord and
 * If-Unmodified-Since of the record as the page read it, so that a change made meanwhile is a conflict, said as
 * such, with the choice to reload. On success the dialog closes and the page says who owns the record now; the
 * mutation makes the record's reads stale.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { components } from '../../../../client/index';
import { updateRecordMutation } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { DialogFormActions, FormProblems, FormSections, useFormState } from '../form/FormParts';
import { formFieldOf, ifUnmodifiedSinceOf, saveErrorsOf, type FormSection, type InputFields } from '../form/form-model';
import { useModalDialog } from '../modal-dialog';
import { readsOfRecord } from './record-reads';

type RecordRepresentation = components['schemas']['RecordRepresentation'];
type FieldInfo = components['schemas']['FieldRepresentation'];

const NO_NAMES: ReadonlyMap<string, string> = new Map();

export function ChangeOwnerDialog({
  objectLabel,
  record,
  ownerField,
  onClose,
  onDone,
}: {
  objectLabel: string;
  /** The record as the page read it: its object, id and lastModifiedDate. */
  record: Pick<RecordRepresentation, 'apiName' | 'id' | 'lastModifiedDate'>;
  /** The object info's OwnerId. */
  ownerField: FieldInfo;
  onClose: () => void;
  /** After the change: what to say on the page. */
  onDone: (message: string) => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const update = useMutation(updateRecordMutation(api, queryClient));
  const [sections] = useState<FormSection[]>(() => [
    { key: 'owner', heading: 'Select New Owner', columns: 1, fields: [formFieldOf(ownerField, 'Owner', true, true)] },
  ]);
  const errors = update.isError ? saveErrorsOf(update.error, sections[0].fields) : null;
  const save = (fields: InputFields) => {
    const since = ifUnmodifiedSinceOf(record);
    update.mutate(
      {
        path: { recordId: record.id },
        body: { fields: { OwnerId: fields.OwnerId ?? null } },
        ...(since && { header: { 'If-Unmodified-Since': since } }),
      },
      { onSuccess: () => onDone(`The ${objectLabel} has a new owner.`) },
    );
  };
  const state = useFormState({
    mode: 'edit',
    sections,
    recordFields: {},
    picklists: undefined,
    errors,
    failedAt: update.isError ? update.submittedAt : 0,
    onSave: save,
  });
  const dialogProps = useModalDialog({
    onClose,
    busy: update.isPending,
    focusFirst: (element) => element.querySelector<HTMLElement>('input:not([disabled])')?.focus(),
  });
  const reload = () => {
    void queryClient.invalidateQueries(readsOfRecord(record.id));
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!update.isPending) state.submit(false);
  };

  return (
    <dialog className="bo-dialog bo-dialog--wide" aria-labelledby="bo-change-owner-heading" {...dialogProps}>
      <h2 id="bo-change-owner-heading" className="bo-dialog__heading">
        Change {objectLabel} Owner
      </h2>
      <form className="bo-quick-action" onSubmit={onSubmit} noValidate aria-busy={update.isPending}>
        <FormProblems state={state} errors={errors} saving={update.isPending} onReload={reload} />
        <FormSections
          state={state}
          sections={sections}
          objectApiName={record.apiName}
          recordFields={{}}
          names={NO_NAMES}
          picklists={undefined}
          headingLevel={3}
          idPrefix="bo-change-owner-section"
        />
        <DialogFormActions saving={update.isPending} submitLabel="Change Owner" onClose={onClose} />
      </form>
    </dialog>
  );
}
