/**
 * The place box of the nearest search, beside the filters: a city typed and chosen from the suggestions
 * (getPlaceSuggestions, from two letters, in the chosen country or any), or "Use my location" (the browser's
 * position, asked for only on that click). Either sets near= and place= in the address; a refused or failed
 * position leaves the page as it was and says so. Loaded apart from the page's first script (ContactLocator
 * loads it lazily): the storefront's initial JavaScript stays within its budget.
 *
 * The input is a combobox after the WAI-ARIA pattern with a listbox popup: Down and Up move through the
 * suggestions (aria-activedescendant: focus stays in the input), Enter chooses, Escape closes.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { getPlaceSuggestionsQuery } from '../../../generated/queries';
import type { PlaceSuggestion } from '../../../client/queries';
import { useApiClient } from '../api-client';

export interface ChosenPlace {
  latitude: number;
  longitude: number;
  place: string;
}

export interface PlaceBoxProps {
  /** The place of the address, shown in the box. */
  place: string | null;
  /** The chosen country, whose cities are suggested (any country's when null). */
  country: string | null;
  onChoose: (chosen: ChosenPlace) => void;
}

/** Suggestions are asked for from this many letters. */
const MIN_PREFIX = 2;
/** The label of the visitor's own position. */
export const MY_LOCATION = 'your location';

const labelOf = (suggestion: PlaceSuggestion) => `${suggestion.city}, ${suggestion.state}, ${suggestion.country}`;

/** What the page says when the position could not be had: the reason, in a few words. */
function positionMessage(error: GeolocationPositionError | null): string {
  if (error?.code === 1) return 'Your location was not shared, so the list is as it was. Type a city instead.';
  return 'Your location could not be found, so the list is as it was. Type a city instead.';
}

export default function PlaceBox({ place, country, onChoose }: PlaceBoxProps) {
  const api = useApiClient();
  const id = useId();
  const [text, setText] = useState(place ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [message, setMessage] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  useEffect(() => setText(place ?? ''), [place]);

  const prefix = text.trim();
  const asking = open && prefix.length >= MIN_PREFIX && prefix !== place;
  const suggestions = useQuery({
    ...getPlaceSuggestionsQuery(api, {
      query: { methodParams: JSON.stringify({ prefix: prefix.slice(0, 100), country }) },
    }),
    enabled: asking,
  });
  const options = asking ? (suggestions.data ?? []) : [];
  const listId = `${id}-list`;
  const optionId = (index: number) => `${id}-option-${index}`;

  const choose = (suggestion: PlaceSuggestion) => {
    setOpen(false);
    setActive(-1);
    setMessage(null);
    setText(labelOf(suggestion));
    onChoose({ latitude: suggestion.latitude, longitude: suggestion.longitude, place: labelOf(suggestion) });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (options.length ? (index + 1) % options.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (options.length ? (index <= 0 ? options.length - 1 : index - 1) : -1));
    } else if (event.key === 'Enter') {
      const chosen = options[active] ?? (options.length === 1 ? options[0] : undefined);
      if (chosen) {
        event.preventDefault();
        choose(chosen);
      }
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const useMyLocation = () => {
    setMessage(null);
    if (!('geolocation' in navigator)) {
      setMessage(positionMessage(null));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        setText(MY_LOCATION);
        onChoose({ latitude: position.coords.latitude, longitude: position.coords.longitude, place: MY_LOCATION });
      },
      (error) => {
        setLocating(false);
        setMessage(positionMessage(error));
      },
      { maximumAge: 600_000, timeout: 15_000 },
    );
  };

  const expanded = open && options.length > 0;
  return (
    <div className="place-box">
      <label className="place-box__label" htmlFor={`${id}-input`}>
        Near a city
      </label>
      <div className="place-box__row">
        <div className="place-box__field">
          <input
            id={`${id}-input`}
            className="place-box__input"
            type="text"
            role="combobox"
            autoComplete="off"
            spellCheck={false}
            placeholder="Type a city"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul id={listId} role="listbox" aria-label="Cities" className="place-box__list" hidden={!expanded}>
            {options.map((suggestion, index) => (
              <li
                key={labelOf(suggestion)}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className="place-box__option"
                // Chosen on mousedown, before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(suggestion);
                }}
              >
                {labelOf(suggestion)}
              </li>
            ))}
          </ul>
        </div>
        <button type="button" className="place-box__locate" onClick={useMyLocation} disabled={locating}>
          {locating ? 'Finding your location…' : 'Use my location'}
        </button>
      </div>
      <p className="place-box__message" role="status">
        {message}
      </p>
    </div>
  );
}
