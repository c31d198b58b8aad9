/**
 * A quick action run from a record page, in a modal dialog (the browser's own, opened with showModal, as the
 * question before a delete is): the action's form (getQuickActionLayout: its sections and fields, of the
 * object whose record it creates or updates, with that object's info and the picklists of the layout's record
 * type) filled with the values it starts with (getQuickActionDefaults, launched from the record:
 * parentRecordId). Save runs it with the record as its context (contextId): performQuickAction (POST) for an
 * action that creates a record, performUpdateRecordQuickAction (PATCH) for one that updates the record, sending
 * only the fields changed. A failed run's errors stand beside their fields (the record-error shape, as the record
 * form places them), else at the top; a duplicate rule's warning offers "Save anyway". On success the dialog
 * closes and hands the API's message to the page; the mutation makes the record's reads stale, so that the page
 * shows the change. Escape or Cancel closes it, and the focus goes back to what opened it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import {
  getObjectInfoQuery,
  getPicklistValuesByRecordTypeQuery,
  getQuickActionDefaultsQuery,
  getQuickActionLayoutQuery,
  performQuickActionMutation,
  performUpdateRecordQuickActionMutation,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { inputIdOf } from '../form/FieldInput';
import { DialogFormActions, FormProblems, FormSections, useFormState } from '../form/FormParts';
import {
  fieldsOf,
  formSectionsOf,
  initialValuesOf,
  saveErrorsOf,
  type FormSection,
  type InputFields,
  type PicklistCollection,
} from '../form/form-model';
import { useModalDialog } from '../modal-dialog';
import { LoadError, Loading } from '../states';
import { updatesRecord, type QuickActionChoice } from './record-actions';

type FieldValue = Parameters<typeof initialValuesOf>[1][string];

const NO_NAMES: ReadonlyMap<string, string> = new Map();
export function QuickActionDialog({
  action,
  recordId,
  onClose,
  onDone,
}: {
  action: QuickActionChoice;
  recordId: string;
  onClose: () => void;
  /** After a successful run: the message to show on the page. */
  onDone: (message: string) => void;
}) {
  const api = useApiClient();
  const { apiName, targetObject } = action;
  const layout = useQuery(getQuickActionLayoutQuery(api, { path: { actionApiName: apiName } }));
  // The values start from the record as it is now: an update action shows the record's current values.
  const defaults = useQuery({
    ...getQuickActionDefaultsQuery(api, { path: { actionApiName: apiName }, query: { parentRecordId: recordId } }),
    refetchOnMount: 'always',
  });
  const objectInfo = useQuery(getObjectInfoQuery(api, { path: { objectApiName: targetObject } }));
  const recordTypeId = layout.data?.recordTypeId ?? undefined;
  const picklists = useQuery({
    ...getPicklistValuesByRecordTypeQuery(api, {
      path: { objectApiName: targetObject, recordTypeId: recordTypeId ?? '' },
    }),
    enabled: recordTypeId !== undefined,
  });

  const [busy, setBusy] = useState(false);
  const dialogProps = useModalDialog({ onClose, busy });

  const failed = [layout, defaults, objectInfo, picklists].find((query) => query.isError);
  const ready =
    layout.data &&
    defaults.data &&
    defaults.isFetchedAfterMount &&
    objectInfo.data &&
    (recordTypeId === undefined || picklists.data);

  return (
    <dialog className="bo-dialog bo-dialog--wide" aria-labelledby="bo-quick-action-heading" {...dialogProps}>
      <h2 id="bo-quick-action-heading" className="bo-dialog__heading">
        {action.label}
      </h2>
      {failed ? (
        <>
          <LoadError what="The action’s form" error={failed.error} />
          <div className="bo-dialog__actions">
            <button type="button" className="bo-button" onClick={onClose} autoFocus>
              Close
            </button>
          </div>
        </>
      ) : ready ? (
        <QuickActionForm
          action={action}
          recordId={recordId}
          sections={formSectionsOf(layout.data, objectInfo.data, updatesRecord(action) ? 'edit' : 'create')}
          recordFields={defaults.data.fields}
          picklists={picklists.data}
          onBusy={setBusy}
          onClose={onClose}
          onDone={onDone}
        />
      ) : (
        <>
          <Loading what="the action’s form" />
          <div className="bo-dialog__actions">
            <button type="button" className="bo-button" onClick={onClose} autoFocus>
              Cancel
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}

function QuickActionForm({
  action,
  recordId,
  sections,
  recordFields,
  picklists,
  onBusy,
  onClose,
  onDone,
}: {
  action: QuickActionChoice;
  recordId: string;
  sections: FormSection[];
  recordFields: Record<string, FieldValue>;
  picklists: PicklistCollection | undefined;
  onBusy: (busy: boolean) => void;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const update = updatesRecord(action);
  const createRun = useMutation(performQuickActionMutation(api, queryClient));
  const updateRun = useMutation(performUpdateRecordQuickActionMutation(api, queryClient));
  const run = update ? updateRun : createRun;
  const errors = run.isError ? saveErrorsOf(run.error, fieldsOf(sections)) : null;
  const save = (fields: InputFields, allowSaveOnDuplicate: boolean) => {
    const body = {
      apiName: action.targetObject,
      contextId: recordId,
      fields,
      ...(allowSaveOnDuplicate && { allowSaveOnDuplicate }),
    };
    const input = { path: { actionApiName: action.apiName }, body };
    const options = {
      onSuccess: (result: { successMessage: string | null }) =>
        onDone(result.successMessage ?? `${action.label}: done.`),
    };
    if (update) updateRun.mutate(input, options);
    else createRun.mutate(input, options);
  };
  const state = useFormState({
    mode: update ? 'edit' : 'create',
    sections,
    recordFields,
    picklists,
    errors,
    failedAt: run.isError ? run.submittedAt : 0,
    onSave: save,
  });

  useEffect(() => onBusy(run.isPending), [run.isPending, onBusy]);
  // The first field to fill in has the focus when the form opens.
  useEffect(() => {
    const first = state.fields.find((field) => field.editable);
    if (first) document.getElementById(inputIdOf(first.apiName))?.focus();
    // Once, when the form is drawn.
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!run.isPending) state.submit(false);
  };

  return (
    <form className="bo-quick-action" onSubmit={onSubmit} noValidate aria-busy={run.isPending}>
      <FormProblems state={state} errors={errors} saving={run.isPending} />
      <FormSections
        state={state}
        sections={sections}
        objectApiName={action.targetObject}
        recordFields={recordFields}
        names={NO_NAMES}
        picklists={picklists}
        headingLevel={3}
        idPrefix="bo-quick-action-section"
      />
      <DialogFormActions saving={run.isPending} submitLabel="Save" onClose={onClose} />
    </form>
  );
}
