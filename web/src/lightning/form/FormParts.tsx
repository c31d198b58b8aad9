/**
 * What the record form (a new record, an edit, a clone) and a quick action's form share: the form's state (its
 * values, the form's own check of required fields and formats, and the save's errors merged beside their
 * fields), where the focus goes after a failed save, the problems at the top, and the layout's sections of
 * inputs.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { FieldInput, inputIdOf } from './FieldInput';
import {
  changedFieldsOf,
  fieldsOf,
  initialValuesOf,
  picklistOptionsOf,
  readOnlyText,
  validationErrorsOf,
  withValue,
  type FormField,
  type FormMode,
  type FormSection,
  type FormValues,
  type InputFields,
  type PicklistCollection,
  type SaveErrors,
} from './form-model';

type FieldValue = Parameters<typeof initialValuesOf>[1][string];

export interface FormStateOptions {
  mode: FormMode;
  sections: FormSection[];
  /** The record's values (or the defaults), which the form starts with. */
  recordFields: Record<string, FieldValue>;
  picklists: PicklistCollection | undefined;
  /** The errors of the last save; null before one, or after a new attempt starts. */
  errors: SaveErrors | null;
  /** When the save that failed was sent (its mutation's submittedAt); 0 when none failed. */
  failedAt: number;
  /** Writes the fields the user changed (all that have a value, for a new record), once the form's check passes. */
  onSave: (fields: InputFields, allowSaveOnDuplicate: boolean) => void;
}

export interface FormState {
  fields: FormField[];
  values: FormValues;
  /** The form's own check and the save's errors, by field. */
  byField: Record<string, string[]>;
  /** Whether the save's errors include any for the top of the form (the record as a whole, a conflict, duplicates). */
  atTop: boolean;
  /** The element of the problems at the top, which takes the focus when a problem is there. */
  summary: RefObject<HTMLDivElement | null>;
  /** Checks the fields, then saves; allowSaveOnDuplicate after "Save anyway". */
  submit: (allowSaveOnDuplicate: boolean) => void;
  change: (apiName: string, value: string | boolean) => void;
}

export function useFormState({
  mode,
  sections,
  recordFields,
  picklists,
  errors,
  failedAt,
  onSave,
}: FormStateOptions): FormState {
  const fields = fieldsOf(sections);
  const [initial] = useState(() => initialValuesOf(fields, recordFields));
  const [values, setValues] = useState(initial);
  const [checked, setChecked] = useState<Record<string, string[]>>({});
  /** How often the form's own check stopped a save. */
  const [stopped, setStopped] = useState(0);
  const summary = useRef<HTMLDivElement>(null);

  const byField: Record<string, string[]> = { ...checked };
  for (const [apiName, messages] of Object.entries(errors?.byField ?? {}))
    byField[apiName] = [...(byField[apiName] ?? []), ...messages];
  const atTop = Boolean(errors && (errors.top.length > 0 || errors.conflict || errors.duplicates));
  const firstInvalid = fields.find((field) => byField[field.apiName]?.length)?.apiName;

  // The focus moves once per failed save, when its answer (or the form's own check) is in: not as the user then
  // fixes the fields, nor when the page renders again for another reason. It goes where the user must look: the
  // message at the top, or the first field in error.
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
    onSave(changedFieldsOf(fields, initial, values, mode), allowSaveOnDuplicate);
  };
  const change = (apiName: string, value: string | boolean) => {
    setValues((current) => withValue(fields, picklists, current, apiName, value));
    // A field's own check is stale once it changes; the server's errors stay until the next save.
    setChecked((current) => {
      if (!current[apiName]) return current;
      const { [apiName]: _dropped, ...rest } = current;
      return rest;
    });
  };
  return { fields, values, byField, atTop, summary, submit, change };
}

/**
 * The problems of the last save, at the top of the form (an alert, which takes the focus): the conflict, a
 * duplicate rule's warning with "Save anyway" where the rule allows it, messages about the record as a whole,
 * and else the list of the fields in error.
 */
export function FormProblems({
  state,
  errors,
  saving,
  onReload,
}: {
  state: FormState;
  errors: SaveErrors | null;
  saving: boolean;
  /** After a conflict: reads the record again, dropping the changes made in the form. */
  onReload?: () => void;
}) {
  const inError = Object.keys(state.byField);
  const labelOf = (apiName: string) => state.fields.find((field) => field.apiName === apiName)?.label ?? apiName;
  return (
    <div ref={state.summary} tabIndex={-1} className="bo-form__summary" role="alert">
      {errors?.conflict && (
        <div className="bo-form__problem">
          <p>This record changed since you opened it. Reload it to see the changes, then make yours again.</p>
          {onReload && (
            <button type="button" className="bo-button" onClick={onReload}>
              Reload the record
            </button>
          )}
        </div>
      )}
      {errors?.duplicates && (
        <div className="bo-form__problem">
          <p>
            {errors.duplicates.message}{' '}
            {errors.duplicates.count === 1
              ? 'One similar record exists.'
              : `${errors.duplicates.count} similar records exist.`}
          </p>
          {errors.duplicates.allowSave && (
            <button type="button" className="bo-button" onClick={() => state.submit(true)} disabled={saving}>
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
      {!state.atTop && inError.length > 0 && (
        <p className="bo-form__problem">
          Review the {inError.length === 1 ? 'error' : `${inError.length} errors`} on this page:{' '}
          {inError.map(labelOf).join(', ')}.
        </p>
      )}
    </div>
  );
}

/**
 * The layout's sections, each a heading (at headingLevel) and its fields' inputs: a dependent picklist offers
 * only the values valid for its controlling field's value; a read-only field shows its display value.
 */
export function FormSections({
  state,
  sections,
  objectApiName,
  recordFields,
  names,
  picklists,
  headingLevel,
  idPrefix,
}: {
  state: FormState;
  sections: FormSection[];
  objectApiName: string;
  recordFields: Record<string, FieldValue>;
  /** The names of the records the lookups point to, by lookup field. */
  names: ReadonlyMap<string, string>;
  picklists: PicklistCollection | undefined;
  headingLevel: 2 | 3;
  /** Makes the sections' heading ids unique on the page. */
  idPrefix: string;
}): ReactNode {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { fields, values, byField, change } = state;
  return sections.map((section) => {
    const headingId = `${idPrefix}-${section.key}`;
    return (
      <section key={section.key} className="bo-section" aria-labelledby={headingId}>
        <Heading id={headingId} className="bo-section__heading">
          {section.heading}
        </Heading>
        <div className={`bo-fields bo-fields--${Math.min(section.columns, 2)}`}>
          {section.fields.map((field) => {
            const controller = field.controllerName
              ? fields.find((candidate) => candidate.apiName === field.controllerName)
              : undefined;
            return (
              <FieldInput
                key={field.apiName}
                objectApiName={objectApiName}
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
                readOnlyText={readOnlyText(field, recordFields, names)}
              />
            );
          })}
        </div>
      </section>
    );
  });
}

/** The end of a form in a dialog: what a screen reader hears while it saves, Cancel, and the button that saves. */
export function DialogFormActions({
  saving,
  submitLabel,
  onClose,
}: {
  saving: boolean;
  submitLabel: string;
  onClose: () => void;
}) {
  return (
    <>
      <p className="visually-hidden" role="status">
        {saving ? 'Saving…' : ''}
      </p>
      <div className="bo-dialog__actions">
        <button type="button" className="bo-button" onClick={onClose} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className="bo-button bo-button--brand" disabled={saving}>
          {saving ? 'Saving…' : submitLabel}
        </button>
      </div>
    </>
  );
}
