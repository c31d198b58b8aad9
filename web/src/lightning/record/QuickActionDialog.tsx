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
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  getObjectInfoQuery,
  getPicklistValuesByRecordTypeQuery,
  getQuickActionDefaultsQuery,
  getQuickActionLayoutQuery,
  performQuickActionMutation,
  performUpdateRecordQuickActionMutation,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { FieldInput, inputIdOf } from '../form/FieldInput';
import {
  changedFieldsOf,
  fieldsOf,
  formSectionsOf,
  initialValuesOf,
  picklistOptionsOf,
  readOnlyText,
  saveErrorsOf,
  validationErrorsOf,
  withValue,
  type FormSection,
  type FormValues,
  type PicklistCollection,
} from '../form/form-model';
import { LoadError, Loading } from '../states';
import { updatesRecord, type QuickActionChoice } from './record-actions';

type FieldValue = Parameters<typeof initialValuesOf>[1][string];

const NO_NAMES: ReadonlyMap<string, string> = new Map();
const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

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

  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  /** Tab and Shift+Tab go round the dialog's own controls, never out to the browser's. */
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const controls = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
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

  const failed = [layout, defaults, objectInfo, picklists].find((query) => query.isError);
  const ready =
    layout.data &&
    defaults.data &&
    defaults.isFetchedAfterMount &&
    objectInfo.data &&
    (recordTypeId === undefined || picklists.data);

  return (
    <dialog
      ref={dialog}
      className="bo-dialog bo-dialog--wide"
      aria-labelledby="bo-quick-action-heading"
      onKeyDown={onKeyDown}
      // Escape: the browser would close the dialog itself; the page closes it, so that its state agrees.
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
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
  const fields = fieldsOf(sections);
  const [initial] = useState(() => initialValuesOf(fields, recordFields));
  const [values, setValues] = useState<FormValues>(initial);
  const [checked, setChecked] = useState<Record<string, string[]>>({});
  const [stopped, setStopped] = useState(0);
  const summary = useRef<HTMLDivElement>(null);

  const errors = run.isError ? saveErrorsOf(run.error, fields) : null;
  const byField: Record<string, string[]> = { ...checked };
  for (const [name, messages] of Object.entries(errors?.byField ?? {}))
    byField[name] = [...(byField[name] ?? []), ...messages];
  const atTop = Boolean(errors && (errors.top.length > 0 || errors.duplicates));
  const firstInvalid = fields.find((field) => byField[field.apiName]?.length)?.apiName;
  const failedAt = run.isError ? run.submittedAt : 0;

  useEffect(() => onBusy(run.isPending), [run.isPending, onBusy]);
  // The first field to fill in has the focus when the form opens.
  useEffect(() => {
    const first = fields.find((field) => field.editable);
    if (first) document.getElementById(inputIdOf(first.apiName))?.focus();
    // Once, when the form is drawn.
  }, []);
  // After a failed run, the focus goes where the user must look: the message at the top, or the first field in error.
  const focusProblem = () => {
    if (atTop) summary.current?.focus();
    else if (firstInvalid) document.getElementById(inputIdOf(firstInvalid))?.focus();
  };
  const focusProblemRef = useRef(focusProblem);
  focusProblemRef.current = focusProblem;
  useEffect(() => {
    if (failedAt > 0 || stopped > 0) focusProblemRef.current();
  }, [failedAt, stopped]);

  const submit = (allowSaveOnDuplicate: boolean) => {
    const problems = validationErrorsOf(fields, values);
    setChecked(problems);
    if (Object.keys(problems).length > 0) return setStopped((count) => count + 1);
    const body = {
      apiName: action.targetObject,
      contextId: recordId,
      fields: changedFieldsOf(fields, initial, values, update ? 'edit' : 'create'),
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
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!run.isPending) submit(false);
  };
  const change = (name: string, value: string | boolean) => {
    setValues((current) => withValue(fields, picklists, current, name, value));
    setChecked((current) => {
      if (!current[name]) return current;
      const { [name]: _dropped, ...rest } = current;
      return rest;
    });
  };

  return (
    <form className="bo-quick-action" onSubmit={onSubmit} noValidate aria-busy={run.isPending}>
      <div ref={summary} tabIndex={-1} className="bo-form__summary" role="alert">
        {errors?.duplicates && (
          <div className="bo-form__problem">
            <p>
              {errors.duplicates.message}{' '}
              {errors.duplicates.count === 1
                ? 'One similar record exists.'
                : `${errors.duplicates.count} similar records exist.`}
            </p>
            {errors.duplicates.allowSave && (
              <button type="button" className="bo-button" onClick={() => submit(true)} disabled={run.isPending}>
                Save anyway
              </button>
            )}
          </div>
        )}
        {errors && errors.top.length > 0 && (
          <div className="bo-form__problem">
            <p>We hit a snag.</p>
            <ul>
              {errors.top.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {sections.map((section) => {
        const headingId = `bo-quick-action-section-${section.key}`;
        return (
          <section key={section.key} className="bo-section" aria-labelledby={headingId}>
            <h3 id={headingId} className="bo-section__heading">
              {section.heading}
            </h3>
            <div className={`bo-fields bo-fields--${Math.min(section.columns, 2)}`}>
              {section.fields.map((field) => {
                const controller = field.controllerName
                  ? fields.find((candidate) => candidate.apiName === field.controllerName)
                  : undefined;
                return (
                  <FieldInput
                    key={field.apiName}
                    objectApiName={action.targetObject}
                    formValues={values}
                    field={field}
                    value={values[field.apiName] ?? ''}
                    onChange={(value) => change(field.apiName, value)}
                    options={picklistOptionsOf(
                      picklists?.picklistFieldValues[field.apiName],
                      controller ? values[controller.apiName] : undefined,
                    )}
                    controllerLabel={controller?.label}
                    errors={byField[field.apiName]}
                    readOnlyText={readOnlyText(field, recordFields, NO_NAMES)}
                  />
                );
              })}
            </div>
          </section>
        );
      })}
      <p className="visually-hidden" role="status">
        {run.isPending ? 'Saving…' : ''}
      </p>
      <div className="bo-dialog__actions">
        <button type="button" className="bo-button" onClick={onClose} disabled={run.isPending}>
          Cancel
        </button>
        <button type="submit" className="bo-button bo-button--brand" disabled={run.isPending}>
          {run.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
