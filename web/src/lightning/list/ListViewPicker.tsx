/**
 * The picker of an object's list views: a labelled select and a button that opens the one chosen. A form, not
 * a select that navigates as it changes: moving through the options with the keyboard must not open each one.
 * Without the app's handler the form itself would ask the server for the same address.
 */
import { useState, type FormEvent } from 'react';
import { navigate } from '../../location';
import { listHref } from '../routes';

interface ListViewSummary {
  apiName: string;
  label: string;
}

export function ListViewPicker({
  objectApiName,
  views,
  current,
}: {
  objectApiName: string;
  views: ListViewSummary[];
  current: string;
}) {
  const [chosen, setChosen] = useState(current);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    navigate(listHref(objectApiName, chosen));
  };
  return (
    <form className="bo-picker" onSubmit={onSubmit} method="get">
      <label htmlFor="bo-list-view">List view</label>
      <select id="bo-list-view" name="filterName" value={chosen} onChange={(event) => setChosen(event.target.value)}>
        {views.map((view) => (
          <option key={view.apiName} value={view.apiName}>
            {view.label}
          </option>
        ))}
      </select>
      <button className="bo-button" type="submit" disabled={chosen === current}>
        Show
      </button>
    </form>
  );
}
