/**
 * A lookup field's input: a combobox (the WAI-ARIA pattern, with a listbox popup) that shows the related
 * record's name and, as the user types two characters or more, asks getLookupRecords (TypeAhead) for the
 * records whose name starts with them, a pause of 200 ms after the last key. The arrow keys move through the
 * suggestions (the focus stays in the input: aria-activedescendant), Enter chooses one, Escape closes the list
 * and gives up what was typed. Choosing sets the field to the record's id; the clear button, or emptying the
 * input, sets it to nothing where the field may be empty. While a search runs, finds nothing or fails, the
 * list says so in a status region, which a screen reader reads. A field that can point at several objects
 * has a choice of the object searched. Loaded apart from the form (FieldInput.tsx), as the form's only user.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { getLookupRecordsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import type { FormField } from './form-model';
import {
  LOOKUP_DEBOUNCE_MS,
  lookupMessageOf,
  lookupOptionsOf,
  lookupRequestOf,
  movedActive,
  searchTermOf,
  type LookupOption,
  type LookupState,
  lookupMayBeEmptied,
} from './lookup-model';

export interface LookupInputProps {
  /** The object of the record the form writes. */
  objectApiName: string;
  field: FormField;
  /** The id of the record the field points to; '' for none. */
  value: string;
  /** The form's values, of which the search sends those the lookup filter depends on. */
  formValues: Readonly<Record<string, string | boolean>>;
  /** The name of the record the field pointed to when the form opened. */
  initialName: string;
  onChange: (value: string) => void;
  /** The input's id, which its label names. */
  id: string;
  invalid: boolean;
  describedBy: string | undefined;
}

/** The value, once it has held still for `delay` ms. */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export default function LookupInput(props: LookupInputProps) {
  const { objectApiName, field, value, onChange, id } = props;
  const api = useApiClient();
  const listboxId = `${useId()}-listbox`;
  const statusId = `${id}-status`;
  const { targets } = field;
  const [target, setTarget] = useState(targets[0]?.apiName);
  /** What the user typed; null while the input shows the chosen record's name. */
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<string | null>(null);
  /** The record chosen in this form, whose name the input shows. */
  const [chosen, setChosen] = useState<LookupOption | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const typedTerm = searchTermOf(typed);
  const term = useSettled(typedTerm, LOOKUP_DEBOUNCE_MS);
  const search = useQuery({
    ...getLookupRecordsQuery(api, lookupRequestOf(objectApiName, field, term ?? '', target, props.formValues)),
    enabled: open && term !== null,
  });

  let state: LookupState = { kind: 'idle' };
  if (open && typedTerm !== null) {
    if (typedTerm !== term || search.isPending) state = { kind: 'loading' };
    else if (search.isError) state = { kind: 'error' };
    else state = { kind: 'results', options: lookupOptionsOf(search.data, targets, target) };
  }
  const options = state.kind === 'results' ? state.options : [];
  const expanded = options.length > 0;
  const activeOption = options.find((option) => option.id === active);
  const message = lookupMessageOf(state, typedTerm) || announcement;
  const shownMessage = state.kind === 'loading' || state.kind === 'error' || (state.kind === 'results' && !expanded);

  const name = value === '' ? '' : chosen?.id === value ? chosen.name : props.initialName || value;
  const nillable = lookupMayBeEmptied(field);

  const close = () => {
    setOpen(false);
    setActive(null);
  };
  const choose = (option: LookupOption) => {
    setChosen(option);
    onChange(option.id);
    setTyped(null);
    close();
    setAnnouncement(`${field.label}: ${option.name}.`);
  };
  const clear = () => {
    onChange('');
    setTyped(null);
    close();
    setAnnouncement(`${field.label} cleared.`);
    document.getElementById(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      setActive(movedActive(options, active, event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter' && open && typedTerm !== null) {
      // Enter in an open list chooses; it never sends the form from there.
      event.preventDefault();
      if (activeOption) choose(activeOption);
    } else if (event.key === 'Escape' && (open || typed !== null)) {
      event.preventDefault();
      event.stopPropagation();
      setTyped(null);
      close();
    }
  };
  const onBlur = () => {
    close();
    // What was typed and not chosen is given up: the input shows the field's record again.
    setTyped(null);
  };

  return (
    <div className="bo-lookup">
      {targets.length > 1 && (
        <select
          className="bo-lookup__target"
          aria-label={`Object to search for ${field.label}`}
          value={target}
          onChange={(event) => {
            setTarget(event.target.value);
            setActive(null);
          }}
        >
          {targets.map((option) => (
            <option key={option.apiName} value={option.apiName}>
              {option.apiName}
            </option>
          ))}
        </select>
      )}
      <div className="bo-lookup__box">
        <input
          id={id}
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={expanded ? listboxId : undefined}
          aria-activedescendant={activeOption ? `${listboxId}-${activeOption.id}` : undefined}
          aria-invalid={props.invalid || undefined}
          aria-required={field.required || undefined}
          aria-describedby={props.describedBy}
          autoComplete="off"
          placeholder={`Search ${targets.length === 1 ? targets[0].apiName : 'records'}…`}
          value={typed ?? name}
          onChange={(event) => {
            const text = event.target.value;
            setTyped(text);
            setOpen(true);
            setActive(null);
            setAnnouncement('');
            if (text.trim() === '' && value !== '' && nillable) onChange('');
          }}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
        />
        {value !== '' && nillable && (
          <button type="button" className="bo-lookup__clear" aria-label={`Clear ${field.label}`} onClick={clear}>
            <span aria-hidden="true">×</span>
          </button>
        )}
        <div className={`bo-lookup__popup${open && (expanded || shownMessage) ? ' bo-lookup__popup--open' : ''}`}>
          {expanded && (
            <ul id={listboxId} role="listbox" aria-label={`${field.label} suggestions`} className="bo-lookup__list">
              {options.map((option) => (
                <li
                  key={option.id}
                  id={`${listboxId}-${option.id}`}
                  role="option"
                  aria-selected={option.id === active}
                  className="bo-lookup__option"
                  // The focus stays in the input: a press on an option must not blur it first.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(option)}
                >
                  <span className="bo-lookup__name">{option.name}</span>
                  {option.secondary && <span className="bo-lookup__secondary">{option.secondary}</span>}
                </li>
              ))}
            </ul>
          )}
          <p id={statusId} role="status" className={shownMessage && open ? 'bo-lookup__message' : 'visually-hidden'}>
            {message}
          </p>
        </div>
      </div>
    </div>
  );
}
