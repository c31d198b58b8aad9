/**
 * A list column's header: its label (a button that sorts by it where the column is sortable), the choice
 * between wrapping and clipping its text, and its right edge, which a pointer drags and the arrow keys move
 * (a focusable separator, as the ARIA practices have a splitter). The width and the wrapping are the user's
 * list preferences: shown at once (the cached preferences are changed in place), and saved with
 * updateListPreferences when the drag ends, at each key, or at once for the wrapping, one save after another. A
 * failed save says so and the preferences are read again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { getListPreferencesQuery, updateListPreferencesMutation } from '../../../../generated/queries';
import type { Schemas } from '../../../../generated/types';
import { useApiClient } from '../../api-client';
import { navigate } from '../../location';
import { clampWidth, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, widthAfterKey, widthOf } from './column-widths';
import { ariaSortOf, nextSortBy, type ColumnSort } from './sorting';

type Column = Schemas['ListColumnRepresentation'];
type Preferences = Schemas['ListPreferencesRepresentation'];

/** The user's preferences of a list: changed in the page at once, saved when asked. */
export function useColumnPreferences(objectApiName: string, listViewApiName: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const path = { objectApiName, listViewApiName };
  const { queryKey } = getListPreferencesQuery(api, { path });
  const saveOptions = updateListPreferencesMutation(api, queryClient);
  const save = useMutation({
    ...saveOptions,
    // One list's saves go one after another, in the order they were made: sent at once, they could reach the
    // server in either order, and a width saved last could be an older one.
    scope: { id: `updateListPreferences ${objectApiName} ${listViewApiName}` },
    // The page already shows what was saved. Only the last of several saves in flight reads the server's
    // preferences again: an earlier one's read could answer before a later save lands and undo its change.
    onSuccess: (...success) => {
      if (queryClient.isMutating({ mutationKey: saveOptions.mutationKey }) > 1) return;
      return saveOptions.onSuccess?.(...success);
    },
    // Not saved: what the server keeps is shown again.
    onError: () => queryClient.invalidateQueries({ queryKey }),
  });
  const change = (update: (preferences: Preferences) => Preferences) => {
    void queryClient.cancelQueries({ queryKey });
    queryClient.setQueryData(queryKey, (current) => (current ? update(current) : current));
  };
  return {
    ready: queryClient.getQueryData(queryKey) !== undefined,
    /** A column's width as last set, which a second key pressed before the page renders again starts from. */
    widthNow: (fieldApiName: string) => widthOf(queryClient.getQueryData(queryKey), fieldApiName),
    saveError: save.error,
    setWidth(fieldApiName: string, width: number) {
      change((current) => ({ ...current, columnWidths: { ...current.columnWidths, [fieldApiName]: width } }));
    },
    saveWidth(fieldApiName: string, width: number) {
      save.mutate({ path, body: { columnWidths: { [fieldApiName]: width } } });
    },
    setWrap(fieldApiName: string, wraps: boolean) {
      change((current) => ({ ...current, columnWrap: { ...current.columnWrap, [fieldApiName]: wraps } }));
      save.mutate({ path, body: { columnWrap: { [fieldApiName]: wraps } } });
    },
  };
}

export type ColumnPreferencesControl = ReturnType<typeof useColumnPreferences>;

export function ColumnHeader({
  column,
  sort,
  width,
  wraps,
  sortHref,
  preferences,
}: {
  column: Column;
  sort: ColumnSort | undefined;
  width: number;
  wraps: boolean;
  sortHref: (options: { sortBy?: string }) => string;
  preferences: ColumnPreferencesControl;
}) {
  const { fieldApiName, label } = column;
  const drag = useRef<{ startX: number; startWidth: number; width: number } | null>(null);
  const ariaSort = ariaSortOf(fieldApiName, sort);

  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    if (!preferences.ready || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { startX: event.clientX, startWidth: width, width };
  };
  const onPointerMove = (event: PointerEvent<HTMLSpanElement>) => {
    if (!drag.current) return;
    drag.current.width = clampWidth(drag.current.startWidth + event.clientX - drag.current.startX);
    preferences.setWidth(fieldApiName, drag.current.width);
  };
  const onPointerUp = () => {
    const ended = drag.current;
    drag.current = null;
    if (ended && ended.width !== ended.startWidth) preferences.saveWidth(fieldApiName, ended.width);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    if (!preferences.ready) return;
    const now = preferences.widthNow(fieldApiName);
    const next = widthAfterKey(now, event.key, event.shiftKey);
    if (next === undefined) return;
    event.preventDefault();
    if (next === now) return;
    preferences.setWidth(fieldApiName, next);
    preferences.saveWidth(fieldApiName, next);
  };

  return (
    <th scope="col" aria-sort={ariaSort} className="bo-table__header">
      <div className="bo-table__head">
        {column.sortable ? (
          <button
            type="button"
            className="bo-table__sort"
            onClick={() => navigate(sortHref({ sortBy: nextSortBy(fieldApiName, sort) }))}
          >
            <span className="bo-table__label">{label}</span>
            <span className="bo-table__arrow" aria-hidden="true">
              {ariaSort === 'descending' ? '▼' : '▲'}
            </span>
          </button>
        ) : (
          <span className="bo-table__label">{label}</span>
        )}
        <button
          type="button"
          className="bo-table__wrap"
          aria-pressed={wraps}
          aria-label="Wrap text"
          title={wraps ? 'Clip text' : 'Wrap text'}
          disabled={!preferences.ready}
          onClick={() => preferences.setWrap(fieldApiName, !wraps)}
        >
          <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <path
              d="M2 3h12M2 7h10a2 2 0 0 1 0 4H8m0 0 2-2m-2 2 2 2M2 11h3"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
            />
          </svg>
        </button>
      </div>
      <span
        className="bo-table__resize"
        role="separator"
        aria-orientation="vertical"
        aria-label="Column width"
        aria-valuenow={width}
        aria-valuemin={MIN_COLUMN_WIDTH}
        aria-valuemax={MAX_COLUMN_WIDTH}
        aria-valuetext={`${width} pixels`}
        aria-disabled={!preferences.ready || undefined}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
      />
    </th>
  );
}
