import { useId } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

interface FilterSelectProps {
  label: string;
  placeholder: string;
  options: SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  disabled?: boolean;
}

/** A labelled native select whose placeholder option stands for "no filter". */
export function FilterSelect({ label, placeholder, options, value, onChange, disabled }: FilterSelectProps) {
  const id = useId();
  return (
    <div className="filter">
      <label className="filter__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="filter__select"
        value={value ?? ''}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
