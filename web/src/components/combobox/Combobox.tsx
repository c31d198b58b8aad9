/**
 * A single-select combobox after the WAI-ARIA combobox pattern with a listbox popup, with the rules of
 * docs/product-spec.md §4, §5 and §9: searchable (an editable input that filters the options as one
 * types) or select-only (type-ahead, buffer reset after 700 ms); a check mark on the selected option;
 * onChange only when the value changes; "Complete this field." once focus has left a required, empty,
 * enabled combobox; never invalid when disabled or read-only; a click on the label reopens the dropdown
 * after 50 ms; the listbox at least 2.25rem high with fewer than 3 options, else 6.75rem. Focus never
 * leaves the combobox: the active option is pointed at with aria-activedescendant.
 *
 * Clearing: the clear button is for the pointer and is not a Tab stop (tabindex=-1), so that Tab goes from
 * one field to the next; from the keyboard, erasing the text of a searchable combobox and leaving it clears
 * the value, as do Delete or Backspace on a select-only one. A clear is announced. Escape closes an open list
 * (and gives up what was typed) and otherwise leaves a chosen value alone: one stray key never loses a filter.
 *
 * Focus never falls to the page: a disabled combobox stays focusable (aria-disabled, read-only), so that one
 * disabled while focus moves to it (State/Province once its country is cleared) still takes it, and the
 * listbox is no Tab stop (Chromium makes a scrolling element without focusable children one).
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import {
  buildSearchIndex,
  filterOptions,
  lazily,
  typeaheadMatch,
  TYPEAHEAD_RESET_MS,
  type ComboboxOption,
} from './matching';
import { memoByObject } from '../../lib/memo';
import { OptionRow } from './OptionRow';

export type { ComboboxOption };

/** A click on the label reopens the dropdown after this delay. */
export const LABEL_REOPEN_DELAY_MS = 50;
/** The platform's standard form message for a missing required value. */
export const VALUE_MISSING_MESSAGE = 'Complete this field.';
const PAGE_STEP = 10;

export interface ComboboxProps {
  label: string;
  options: readonly ComboboxOption[];
  /** The selected option's value; null for none. */
  value: string | null;
  /** The change event: called with the new value (null when cleared) only when it differs. */
  onChange?: (value: string | null, option: ComboboxOption | null) => void;
  placeholder?: string;
  /** Submits the value with a form under this name. */
  name?: string;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  /** true (default): type to filter the options; false: select-only, with type-ahead. */
  searchable?: boolean;
  messageWhenValueMissing?: string;
  className?: string;
}

type OpenAt = 'selected-or-first' | 'selected-or-last' | 'selected';

/** Each option's place in its list, by value: once per list (a list is the same array while its data is). */
const positionsOf = memoByObject(
  (options: readonly ComboboxOption[]) => new Map(options.map((option, position) => [option.value, position])),
);

export function Combobox({
  label,
  options,
  value,
  onChange,
  placeholder,
  name,
  required = false,
  disabled = false,
  readOnly = false,
  searchable = true,
  messageWhenValueMissing = VALUE_MISSING_MESSAGE,
  className,
}: ComboboxProps) {
  const id = useId();
  const inputId = `${id}input`;
  const labelId = `${id}label`;
  const listboxId = `${id}listbox`;
  const errorId = `${id}error`;

  const [open, setOpen] = useState(false);
  /** What the visitor has typed; null while the input shows the selected option's label. */
  const [query, setQuery] = useState<string | null>(null);
  const [activeValue, setActiveValue] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  /** What the status region last said of a clear; emptied by the next input. */
  const [announcement, setAnnouncement] = useState('');
  const controlRef = useRef<HTMLInputElement & HTMLDivElement>(null);
  const labelTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const typeahead = useRef<{ buffer: string; timer?: ReturnType<typeof setTimeout> }>({ buffer: '' });

  const interactive = !disabled && !readOnly;
  const isOpen = open && interactive;
  // Built at the first search or type-ahead, not at render: the server's render never searches, nor do most visits.
  const index = useMemo(() => lazily(() => buildSearchIndex(options)), [options]);
  const foldedLabels = useMemo(() => lazily(() => index().map((entry) => entry.folded)), [index]);
  const positionOf = positionsOf(options);
  const visible = useMemo(
    () => (searchable && query !== null ? filterOptions(index(), query) : options),
    [searchable, query, index, options],
  );
  const selected = value === null ? undefined : options[positionOf.get(value) ?? -1];
  const expanded = isOpen && visible.length > 0;
  const activeIndex = expanded ? visible.findIndex((option) => option.value === activeValue) : -1;
  const optionId = (option: ComboboxOption) => `${listboxId}-${positionOf.get(option.value)}`;
  const activeId = activeIndex >= 0 ? optionId(visible[activeIndex]) : undefined;
  // Value missing = required, enabled (neither disabled nor read-only) and empty; shown once focus has left.
  const invalid = required && interactive && touched && !value;

  useEffect(
    () => () => {
      clearTimeout(labelTimer.current);
      clearTimeout(typeahead.current.timer);
    },
    [],
  );

  useLayoutEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);

  function openList(at: OpenAt) {
    if (!interactive) return;
    setAnnouncement('');
    setOpen(true);
    const fallback = at === 'selected-or-first' ? options[0] : at === 'selected-or-last' ? options.at(-1) : undefined;
    setActiveValue((selected ?? fallback)?.value ?? null);
  }

  function close() {
    setOpen(false);
    setQuery(null);
  }

  function choose(option: ComboboxOption | null) {
    close();
    const next = option?.value ?? null;
    if (next !== value) onChange?.(next, option);
  }

  /** Clears the value from the keyboard or the clear button, and says so to screen readers. */
  function clear() {
    choose(null);
    setAnnouncement(`${label} cleared`);
  }

  // Options call the latest choose() through a stable callback, so that moving the active option
  // re-renders two rows, not all of them.
  const chooseRef = useRef(choose);
  useLayoutEffect(() => {
    chooseRef.current = choose;
  });
  const onOptionClick = useCallback((option: ComboboxOption) => chooseRef.current(option), []);

  function move(to: 'first' | 'last' | 'next' | 'previous' | 'page-down' | 'page-up') {
    if (visible.length === 0) return;
    const last = visible.length - 1;
    const from = activeIndex;
    const target = {
      first: 0,
      last,
      next: from < 0 ? 0 : Math.min(last, from + 1),
      previous: from < 0 ? last : Math.max(0, from - 1),
      'page-down': Math.min(last, Math.max(0, from) + PAGE_STEP),
      'page-up': Math.max(0, from - PAGE_STEP),
    }[to];
    setActiveValue(visible[target].value);
  }

  function typeAhead(char: string) {
    const state = typeahead.current;
    clearTimeout(state.timer);
    state.buffer += char;
    state.timer = setTimeout(() => {
      state.buffer = '';
    }, TYPEAHEAD_RESET_MS);
    const from = positionOf.get((isOpen ? activeValue : value) ?? '') ?? -1;
    const match = typeaheadMatch(foldedLabels(), state.buffer, from);
    if (match >= 0) {
      setOpen(true);
      setActiveValue(options[match].value);
    } else if (!isOpen) {
      openList('selected-or-first');
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (!interactive) return;
    const { key, altKey, ctrlKey, metaKey } = event;
    const active = activeIndex >= 0 ? visible[activeIndex] : undefined;
    switch (key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!isOpen) openList(altKey ? 'selected' : 'selected-or-first');
        else if (!altKey) move('next');
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (!isOpen) openList('selected-or-last');
        else if (!altKey) move('previous');
        else if (active) choose(active);
        else close();
        return;
      case 'Home':
      case 'End':
      case 'PageDown':
      case 'PageUp':
        if (!expanded) return;
        event.preventDefault();
        move(key === 'Home' ? 'first' : key === 'End' ? 'last' : key === 'PageDown' ? 'page-down' : 'page-up');
        return;
      case 'Enter':
        if (!isOpen) return;
        event.preventDefault();
        if (active) choose(active);
        else close();
        return;
      case 'Escape':
        if (isOpen || query !== null) {
          event.preventDefault();
          close();
        }
        return;
      // Tab needs nothing here: leaving the combobox (blur) closes the list and keeps or clears the value.
    }
    if (searchable || ctrlKey || metaKey || altKey) return;
    if ((key === 'Delete' || key === 'Backspace') && !isOpen && value !== null) {
      event.preventDefault();
      clear();
      return;
    }
    // Select-only: Space opens or picks, unless it continues a type-ahead word; other characters search.
    if (key === ' ' && typeahead.current.buffer === '') {
      event.preventDefault();
      if (!isOpen) openList('selected-or-first');
      else if (active) choose(active);
      return;
    }
    if (key.length === 1) {
      event.preventDefault();
      typeAhead(key);
    }
  }

  function onInput(text: string) {
    setAnnouncement('');
    setQuery(text);
    setOpen(true);
    setActiveValue(filterOptions(index(), text)[0]?.value ?? null);
  }

  function onBlur() {
    // Erasing the text of a searchable combobox and leaving it clears the selection.
    if (searchable && query !== null && query.trim() === '' && value !== null) choose(null);
    else close();
    setTouched(true);
  }

  function onPointerToggle(event: MouseEvent<HTMLElement>) {
    if (event.button !== 0 || !interactive) return;
    if (isOpen && query === null) close();
    else if (!isOpen) openList('selected-or-first');
  }

  function onLabelClick() {
    if (!interactive) return;
    if (!searchable) controlRef.current?.focus();
    clearTimeout(labelTimer.current);
    labelTimer.current = setTimeout(() => {
      controlRef.current?.focus();
      openList('selected-or-first');
    }, LABEL_REOPEN_DELAY_MS);
  }

  const ariaProps = {
    role: 'combobox',
    'aria-expanded': expanded,
    'aria-controls': listboxId,
    'aria-activedescendant': activeId,
    'aria-haspopup': 'listbox' as const,
    'aria-required': required || undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': invalid ? errorId : undefined,
  };

  return (
    <div
      className={['combobox', invalid && 'combobox--invalid', disabled && 'combobox--disabled', className]
        .filter(Boolean)
        .join(' ')}
    >
      <label id={labelId} className="combobox__label" htmlFor={searchable ? inputId : undefined} onClick={onLabelClick}>
        {label}
        {required && (
          <span className="combobox__required" aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      <div className="combobox__field">
        {searchable ? (
          <input
            {...ariaProps}
            ref={controlRef}
            id={inputId}
            className="combobox__control combobox__input"
            type="text"
            autoComplete="off"
            spellCheck={false}
            aria-autocomplete="list"
            placeholder={placeholder}
            value={query ?? selected?.label ?? ''}
            aria-disabled={disabled || undefined}
            readOnly={readOnly || disabled}
            onChange={(event) => onInput(event.target.value)}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
            onMouseDown={onPointerToggle}
            onFocus={(event) => {
              if (query === null) event.currentTarget.select();
            }}
          />
        ) : (
          <div
            {...ariaProps}
            ref={controlRef}
            id={inputId}
            className="combobox__control combobox__button"
            tabIndex={0}
            aria-labelledby={labelId}
            aria-disabled={disabled || undefined}
            aria-readonly={readOnly || undefined}
            onKeyDown={onKeyDown}
            onBlur={onBlur}
            onMouseDown={onPointerToggle}
          >
            {selected ? selected.label : <span className="combobox__placeholder">{placeholder}</span>}
          </div>
        )}
        {selected && interactive ? (
          <button
            type="button"
            className="combobox__clear"
            aria-label={`Clear ${label}`}
            title="Clear (Esc)"
            // Not a Tab stop: Tab moves between fields; Escape in the field clears it.
            tabIndex={-1}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              clear();
              controlRef.current?.focus();
            }}
          >
            <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
              <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
            </svg>
          </button>
        ) : (
          <svg
            className="combobox__chevron"
            viewBox="0 0 16 16"
            width="14"
            height="14"
            aria-hidden="true"
            focusable="false"
          >
            <path
              d="M3.5 6l4.5 4.5L12.5 6"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.75"
              strokeLinecap="round"
            />
          </svg>
        )}
        <ul
          id={listboxId}
          role="listbox"
          aria-labelledby={labelId}
          className="combobox__listbox"
          tabIndex={-1}
          hidden={!expanded}
          // At least 2.25rem with fewer than 3 options, else 6.75rem (room for three).
          style={{ minHeight: visible.length < 3 ? '2.25rem' : '6.75rem' }}
          onMouseDown={(event) => event.preventDefault()}
        >
          {expanded &&
            visible.map((option) => (
              <OptionRow
                key={option.value}
                id={optionId(option)}
                option={option}
                selected={option.value === value}
                active={option.value === activeValue}
                onChoose={onOptionClick}
              />
            ))}
        </ul>
        {isOpen && visible.length === 0 && <div className="combobox__no-match">No matches</div>}
      </div>
      <div className="visually-hidden" role="status">
        {searchable && isOpen && query !== null
          ? visible.length
            ? `${visible.length} options available`
            : 'No matches'
          : announcement}
      </div>
      {invalid && (
        <div id={errorId} className="combobox__error">
          {messageWhenValueMissing}
        </div>
      )}
      {name && <input type="hidden" name={name} value={value ?? ''} />}
    </div>
  );
}
