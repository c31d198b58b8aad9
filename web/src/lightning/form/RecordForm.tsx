/**
 * A record's form, for both a new record and an edit: the layout's sections of fields, each input by its
 * data type, required fields marked, a dependent picklist offering only the values valid for its controlling
 * field, a lookup searched as the user types (its value the related record's id). Save checks the required fields, then hands the fields to write to the page, which calls the API;
 * a failed save's errors come back here: beside their fields, at the top otherwise, with the conflict (the
 * record changed since it was opened) and a duplicate rule's warning ("Save anyway") said as such. After a
 * failed save the focus goes where the user must look: the message at the top, or the first field in error.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { components } from '../../../../client/index';
import { PageLink } from '../../location';
import { FieldInput, inputIdOf } from './FieldInput';
import {
  changedFieldsOf,
  fieldsOf,
  initialValuesOf,
  picklistOptionsOf,
  readOnlyText,
  validationErrorsOf,
  withValue,
  type FormMode,
  type FormSection,
  type InputFields,
  type PicklistCollection,
  type SaveErrors,
} from './form-model';

type FieldValue = components['schemas']['FieldValueRepresentation'];

export interface RecordFormProps {
  mode: FormMode;
  /** The object of the record the form writes. */
  objectApiName: string;
  /** The form's heading: "Edit CU-000123", "New Contact Us". */
  heading: string;
  /** Above the heading: the object's label, a link to its list. */
  objectLink: ReactNode;
  sections: FormSection[];
  /** The record's values (or the create defaults), which the form starts with and read-only fields show. */
  recordFields: Record<string, FieldValue>;
  /** The names of the records the lookups point to, by lookup field. */
  names: ReadonlyMap<string, string>;
  picklists: PicklistCollection | undefined;
  /** Where Cancel goes. */
  cancelHref: string;
  saving: boolean;
  /** The errors of the last save; null before one, or after a new attempt starts. */
  errors: SaveErrors | null;
  /** When the save that failed was sent (its mutation's submittedAt); 0 when none failed. */
  failedAt: number;
  /** Writes the fields; allowSaveOnDuplicate once the user chose to save in spite of a duplicate warning. */
  onSave: (fields: InputFields, allowSaveOnDuplicate: boolean) => void;
  /** After a conflict: reads the record again, dropping the changes made in the form. */
  onReload?: () => void;
}

export function RecordForm(props: RecordFormProps) {
  const { mode, sections, recordFields, picklists, saving, errors, onSave } = props;
  const fields = fieldsOf(sections);
  const [initial] = useState(() => initialValuesOf(fields, recordFields));
  const [values, setValues] = useState(initial);
  const [checked, setChecked] = useState<Record<string, string[]>>({});
  /** How often the form's own check stopped a save. */
  const [stopped, setStopped] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  const labelOf = (apiName: string) => fields.find((field) => field.apiName === apiName)?.label;

  const byField: Record<string, string[]> = { ...checked };
  for (const [apiName, messages] of Object.entries(errors?.byField ?? {}))
    byField[apiName] = [...(byField[apiName] ?? []), ...messages];
  const atTop = Boolean(errors && (errors.top.length > 0 || errors.conflict || errors.duplicates));
  const firstInvalid = fields.find((field) => byField[field.apiName]?.length)?.apiName;

  // The focus moves once per failed save, when its answer (or the form's own check) is in: not as the user then
  // fixes the fields, nor when the page renders again for another reason.
  const focusProblem = () => {
    if (atTop) summary.current?.focus();
    else if (firstInvalid) document.getElementById(inputIdOf(firstInvalid))?.focus();
  };
  const focusProblemRef = useRef(focusProblem);
  focusProblemRef.current = focusProblem;
  useEffect(() => {
    if (props.failedAt > 0 || stopped > 0) focusProblemRef.current();
  }, [props.failedAt, stopped]);

  const submit = (allowSaveOnDuplicate: boolean) => {
    const problems = validationErrorsOf(fields, values);
    setChecked(problems);
    if (Object.keys(problems).length > 0) return setStopped((count) => count + 1);
    onSave(changedFieldsOf(fields, initial, values, mode), allowSaveOnDuplicate);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!saving) submit(false);
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
  const fieldErrorCount = Object.keys(byField).length;

  return (
    <form className="bo-form" onSubmit={onSubmit} noValidate aria-labelledby="bo-form-heading" aria-busy={saving}>
      <header className="bo-record__header">
        <p className="bo-record__object">{props.objectLink}</p>
        <h1 id="bo-form-heading" className="bo-record__name">
          {props.heading}
        </h1>
        <p className="bo-form__legend">
          <abbr className="bo-required" title="required" aria-hidden="true">
            *
          </abbr>{' '}
          = Required information
        </p>
      </header>
      <div ref={summary} tabIndex={-1} className="bo-form__summary" role="alert">
        {errors?.conflict && (
          <div className="bo-form__problem">
            <p>This record changed since you opened it. Reload it to see the changes, then make yours again.</p>
            {props.onReload && (
              <button type="button" className="bo-button" onClick={props.onReload}>
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
              <button type="button" className="bo-button" onClick={() => submit(true)} disabled={saving}>
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
        {!atTop && fieldErrorCount > 0 && (
          <p className="bo-form__problem">
            Review the {fieldErrorCount === 1 ? 'error' : `${fieldErrorCount} errors`} on this page:{' '}
            {Object.keys(byField)
              .map((apiName) => labelOf(apiName) ?? apiName)
              .join(', ')}
            .
          </p>
        )}
      </div>
      {sections.map((section) => {
        const headingId = `bo-form-section-${section.key}`;
        return (
          <section key={section.key} className="bo-section" aria-labelledby={headingId}>
            <h2 id={headingId} className="bo-section__heading">
              {section.heading}
            </h2>
            <div className={`bo-fields bo-fields--${Math.min(section.columns, 2)}`}>
              {section.fields.map((field) => {
                const controller = field.controllerName
                  ? fields.find((candidate) => candidate.apiName === field.controllerName)
                  : undefined;
                return (
                  <FieldInput
                    key={field.apiName}
                    objectApiName={props.objectApiName}
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
                    readOnlyText={readOnlyText(field, recordFields, props.names)}
                  />
                );
              })}
            </div>
          </section>
        );
      })}
      <div className="bo-form__actions">
        <PageLink className="bo-button" href={props.cancelHref}>
          Cancel
        </PageLink>
        <button type="submit" className="bo-button bo-button--brand" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {saving ? 'Saving the record…' : ''}
      </p>
    </form>
  );
}
