/**
 * A list view's filters, edited: one row per filter, a field (the list object info's filterable columns), an
 * operator (the ones that column supports, in the platform's words) and the values (commas between several;
 * a picklist's values offered, a checkbox's true or false). Filters are added and removed, then saved together
 * with updateListInfoByName, which replaces the view's filters (and so its filter logic: the new ones are
 * ANDed); the list's records, which the write makes stale, are read again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { updateListInfoByNameMutation } from '../../../../generated/queries';
import type { Schemas } from '../../../../generated/types';
import { useApiClient } from '../../api-client';
import {
  buildFilters,
  filterableColumns,
  newFilterRow,
  OPERATOR_LABELS,
  operatorsFor,
  rowsOf,
  withField,
  type FilterOperator,
  type FilterRow,
  type ListObjectColumn,
} from './filters';
import { DialogProblem, ListDialog, problemOf } from './ListDialog';

type ListInfo = Schemas['ListInfoRepresentation'];
type ListObjectInfo = Schemas['ListObjectInfoRepresentation'];

export function FilterDialog({
  objectApiName,
  info,
  objectInfo,
  onClose,
}: {
  objectApiName: string;
  info: ListInfo;
  objectInfo: ListObjectInfo;
  onClose: () => void;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const columns = filterableColumns(objectInfo.columns);
  const byName = new Map(columns.map((column) => [column.fieldApiName, column]));
  const [rows, setRows] = useState<FilterRow[]>(() => rowsOf(info.filteredByInfo));
  const [problems, setProblems] = useState<Record<number, string>>({});
  const save = useMutation({
    ...updateListInfoByNameMutation(api, queryClient),
    onSuccess: async (...args) => {
      await updateListInfoByNameMutation(api, queryClient).onSuccess?.(...args);
      onClose();
    },
  });

  const change = (index: number, row: FilterRow) => {
    setRows(rows.map((current, at) => (at === index ? row : current)));
    setProblems({});
  };
  const add = () => {
    if (columns.length === 0) return;
    setRows([...rows, newFilterRow(columns[0])]);
    setProblems({});
  };
  const remove = (index: number) => {
    setRows(rows.filter((_, at) => at !== index));
    setProblems({});
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const built = buildFilters(rows, columns);
    if ('problems' in built) {
      setProblems(built.problems);
      return;
    }
    save.mutate({
      path: { objectApiName, listViewApiName: info.listReference.listViewApiName ?? '' },
      body: { filteredByInfo: built.filters },
    });
  };

  return (
    <ListDialog
      id="bo-list-filters"
      heading={`Filters of ${info.label ?? 'the list view'}`}
      busy={save.isPending}
      wide
      onClose={onClose}
    >
      <form className="bo-form" onSubmit={onSubmit} noValidate>
        {rows.length === 0 ? (
          <p>This list view has no filters: it shows every record of its scope.</p>
        ) : (
          <ol className="bo-filters">
            {rows.map((row, index) => (
              <FilterRowFields
                key={index}
                index={index}
                row={row}
                column={byName.get(row.fieldApiName)}
                columns={columns}
                problem={problems[index]}
                onChange={(changed) => change(index, changed)}
                onRemove={() => remove(index)}
              />
            ))}
          </ol>
        )}
        <p className="bo-form-field__hint">Separate several values with commas; they are matched with OR.</p>
        <p>
          <button type="button" className="bo-button" onClick={add} disabled={columns.length === 0}>
            Add filter
          </button>
        </p>
        {save.isError && <DialogProblem what="The filters were not saved." message={problemOf(save.error)} />}
        <div className="bo-dialog__actions">
          <button type="button" className="bo-button" data-safe onClick={onClose} disabled={save.isPending}>
            Cancel
          </button>
          <button type="submit" className="bo-button bo-button--brand" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </ListDialog>
  );
}

function FilterRowFields({
  index,
  row,
  column,
  columns,
  problem,
  onChange,
  onRemove,
}: {
  index: number;
  row: FilterRow;
  column: ListObjectColumn | undefined;
  columns: ListObjectColumn[];
  problem: string | undefined;
  onChange: (row: FilterRow) => void;
  onRemove: () => void;
}) {
  const id = `bo-filter-${index}`;
  const number = index + 1;
  const operators = operatorsFor(column);
  const picklist = column?.picklistValues ?? [];
  return (
    <li className="bo-filter" aria-label={`Filter ${number}`}>
      <div className="bo-form-field">
        <label className="bo-form-field__label" htmlFor={`${id}-field`}>
          Field
        </label>
        <select
          id={`${id}-field`}
          value={column ? row.fieldApiName : ''}
          onChange={(event) => {
            const chosen = columns.find((candidate) => candidate.fieldApiName === event.target.value);
            if (chosen) onChange(withField(row, chosen));
          }}
        >
          {!column && <option value="">{row.fieldApiName} (cannot be filtered here)</option>}
          {columns.map((candidate) => (
            <option key={candidate.fieldApiName} value={candidate.fieldApiName}>
              {candidate.label}
            </option>
          ))}
        </select>
      </div>
      <div className="bo-form-field">
        <label className="bo-form-field__label" htmlFor={`${id}-operator`}>
          Operator
        </label>
        <select
          id={`${id}-operator`}
          value={row.operator}
          onChange={(event) => onChange({ ...row, operator: event.target.value as FilterOperator })}
        >
          {operators.map((operator) => (
            <option key={operator} value={operator}>
              {OPERATOR_LABELS[operator]}
            </option>
          ))}
        </select>
      </div>
      <div className={`bo-form-field${problem ? ' bo-form-field--invalid' : ''}`}>
        <label className="bo-form-field__label" htmlFor={`${id}-value`}>
          Value
        </label>
        {column?.dataType === 'Boolean' ? (
          <select
            id={`${id}-value`}
            value={row.value}
            onChange={(event) => onChange({ ...row, value: event.target.value })}
          >
            <option value="">Choose…</option>
            <option value="true">True</option>
            <option value="false">False</option>
          </select>
        ) : (
          <>
            <input
              id={`${id}-value`}
              value={row.value}
              list={picklist.length > 0 ? `${id}-values` : undefined}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(event) => onChange({ ...row, value: event.target.value })}
            />
            {picklist.length > 0 && (
              <datalist id={`${id}-values`}>
                {picklist.map((value) => (
                  <option key={value.apiName} value={value.apiName}>
                    {value.label}
                  </option>
                ))}
              </datalist>
            )}
          </>
        )}
      </div>
      <button type="button" className="bo-button" onClick={onRemove} aria-label={`Remove filter ${number}`}>
        Remove
      </button>
      {problem && (
        <p id={`${id}-problem`} className="bo-filter__problem">
          {problem}
        </p>
      )}
    </li>
  );
}
