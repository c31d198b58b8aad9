/**
 * One field of a record form: its label (marked when required), the input its data type asks for, and its
 * errors beside it, tied to the input (aria-describedby, aria-invalid). A read-only field shows its value. A
 * lookup's type-ahead (LookupInput.tsx) is loaded apart, when a form first shows one; until then the input
 * shows the related record's name.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { FormField, PicklistOption } from './form-model';

const LookupInput = lazy(() => import('./LookupInput'));

export interface FieldInputProps {
  /** The object of the record the form writes, which a lookup's search names. */
  objectApiName: string;
  /** The form's values: a lookup's search sends those its filter depends on. */
  formValues: Readonly<Record<string, string | boolean>>;
  field: FormField;
  value: string | boolean;
  onChange: (value: string | boolean) => void;
  /** A picklist's values, for this record type and its controlling field's value. */
  options: PicklistOption[];
  /** The label of the controlling field, said while it is empty; undefined for a field that has none. */
  controllerLabel?: string;
  errors: string[] | undefined;
  /** The text of a read-only field; a lookup's related record's name. */
  readOnlyText: string;
}

const INPUT_TYPES: Partial<Record<FormField['dataType'], string>> = {
  Email: 'email',
  Phone: 'tel',
  Url: 'url',
  Date: 'date',
  DateTime: 'datetime-local',
  Time: 'time',
  Double: 'number',
  Int: 'number',
  Long: 'number',
  Currency: 'number',
  Percent: 'number',
};

const AUTOCOMPLETE_OFF = 'off';

/** The id of a field's input, and of the texts that describe it. */
export function inputIdOf(apiName: string): string {
  return `bo-field-${apiName}`;
}

export function FieldInput({
  objectApiName,
  formValues,
  field,
  value,
  onChange,
  options,
  controllerLabel,
  errors,
  readOnlyText,
}: FieldInputProps) {
  const id = inputIdOf(field.apiName);
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);

  if (!field.editable)
    return (
      <div className="bo-form-field bo-form-field--read-only">
        <span className="bo-form-field__label">{field.label}</span>
        <p className="bo-form-field__value">{readOnlyText || <span className="visually-hidden">No value</span>}</p>
      </div>
    );

  const waiting = field.controllerName !== null && controllerLabel !== undefined && options.length === 0;
  const hint = waiting ? `Choose a ${controllerLabel} first.` : undefined;
  const describedBy = [invalid ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };
  // The mark of a required field stands beside its label, not in it: the input's name is the label alone, and
  // aria-required says that it is required.
  const mark = field.required && (
    <abbr className="bo-required" title="required" aria-hidden="true">
      *
    </abbr>
  );
  const below: ReactNode = (
    <>
      {hint && (
        <p className="bo-form-field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {invalid && (
        <p className="bo-form-field__error" id={errorId}>
          {errors!.join(' ')}
        </p>
      )}
    </>
  );

  if (field.dataType === 'Boolean')
    return (
      <div className={`bo-form-field bo-form-field--checkbox${invalid ? ' bo-form-field--invalid' : ''}`}>
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
        {mark}
        <label htmlFor={id}>{field.label}</label>
        {below}
      </div>
    );

  if (field.dataType === 'MultiPicklist') {
    const chosen = new Set(String(value).split(';').filter(Boolean));
    const toggle = (option: string, on: boolean) => {
      const next = options.map((item) => item.value).filter((item) => (item === option ? on : chosen.has(item)));
      onChange(next.join(';'));
    };
    return (
      <fieldset
        className={`bo-form-field bo-form-field--choices${invalid ? ' bo-form-field--invalid' : ''}`}
        id={id}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        tabIndex={-1}
      >
        <legend className="bo-form-field__label">
          {mark}
          {field.label}
          {field.required && <span className="visually-hidden"> (required)</span>}
        </legend>
        <div className="bo-choices">
          {options.map((option) => (
            <label key={option.value} className="bo-choice">
              <input
                type="checkbox"
                checked={chosen.has(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              {option.label}
            </label>
          ))}
        </div>
        {below}
      </fieldset>
    );
  }

  let control: ReactNode;
  if (field.dataType === 'Reference')
    control = (
      <Suspense fallback={<input {...common} type="text" readOnly value={readOnlyText} />}>
        <LookupInput
          objectApiName={objectApiName}
          field={field}
          value={String(value)}
          formValues={formValues}
          initialName={readOnlyText}
          onChange={onChange}
          id={id}
          invalid={invalid}
          describedBy={describedBy}
        />
      </Suspense>
    );
  else if (field.dataType === 'Picklist')
    control = (
      <select {...common} value={String(value)} disabled={waiting} onChange={(event) => onChange(event.target.value)}>
        <option value="">--None--</option>
        {/* A value the record holds that the picklist no longer offers stays shown, so that it is not lost unseen. */}
        {value !== '' && !options.some((option) => option.value === value) && (
          <option value={String(value)}>{String(value)}</option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    );
  else if (field.dataType === 'TextArea')
    control = (
      <textarea
        {...common}
        value={String(value)}
        maxLength={field.maxLength || undefined}
        rows={3}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  else {
    const type = INPUT_TYPES[field.dataType] ?? 'text';
    control = (
      <input
        {...common}
        type={type}
        value={String(value)}
        maxLength={type === 'number' || !field.maxLength ? undefined : field.maxLength}
        step={type === 'number' ? (field.dataType === 'Int' || field.dataType === 'Long' ? 1 : 'any') : undefined}
        autoComplete={AUTOCOMPLETE_OFF}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <div className={`bo-form-field${invalid ? ' bo-form-field--invalid' : ''}`}>
      <span className="bo-form-field__label">
        {mark}
        <label htmlFor={id}>{field.label}</label>
      </span>
      {control}
      {below}
    </div>
  );
}
