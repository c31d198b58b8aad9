/**
 * A record's form, for both a new record and an edit: the layout's sections of fields, each input by its
 * data type, required fields marked, a dependent picklist offering only the values valid for its controlling
 * field, a lookup searched as the user types (its value the related record's id). Save checks the required fields, then hands the fields to write to the page, which calls the API;
 * a failed save's errors come back here: beside their fields, at the top otherwise, with the conflict (the
 * record changed since it was opened) and a duplicate rule's warning ("Save anyway") said as such. After a
 * failed save the focus goes where the user must look: the message at the top, or the first field in error.
 */
import type { FormEvent, ReactNode } from 'react';
import type { components } from '../../../../client/index';
import { PageLink } from '../../location';
import type { FormMode, FormSection, InputFields, PicklistCollection, SaveErrors } from './form-model';
import { FormProblems, FormSections, useFormState } from './FormParts';

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
  const { mode, sections, recordFields, picklists, saving, errors, failedAt, onSave } = props;
  const state = useFormState({ mode, sections, recordFields, picklists, errors, failedAt, onSave });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!saving) state.submit(false);
  };

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
      <FormProblems state={state} errors={errors} saving={saving} onReload={props.onReload} />
      <FormSections
        state={state}
        sections={sections}
        objectApiName={props.objectApiName}
        recordFields={recordFields}
        names={props.names}
        picklists={picklists}
        headingLevel={2}
        idPrefix="bo-form-section"
      />
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
