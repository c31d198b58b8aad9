import { memo } from 'react';
import type { ComboboxOption } from './matching';

interface OptionRowProps {
  id: string;
  option: ComboboxOption;
  selected: boolean;
  active: boolean;
  onChoose: (option: ComboboxOption) => void;
}

/** One option of the listbox; memoised, so that moving the active option re-renders two rows. */
export const OptionRow = memo(function OptionRow({ id, option, selected, active, onChoose }: OptionRowProps) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={selected}
      className={['combobox__option', active && 'combobox__option--active', selected && 'combobox__option--selected']
        .filter(Boolean)
        .join(' ')}
      onClick={() => onChoose(option)}
    >
      <span className="combobox__check" aria-hidden="true">
        {selected && (
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path d="M3 8.5l3.2 3L13 4.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        )}
      </span>
      <span className="combobox__option-text">
        <span className="combobox__option-label">{option.label}</span>
        {option.description && <span className="combobox__option-description">{option.description}</span>}
      </span>
    </li>
  );
});
