/**
 * The header's search box, on every screen: a term submitted opens the search results screen for it; a term
 * the platform would refuse (shorter than 2 characters) is said so beside the box, and nothing is asked. A
 * real form to the results' address, so that it works before the app has loaded too.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { navigate } from '../../location';
import { SEARCH_PATH, searchHref } from '../routes';
import { MAX_SEARCH_TERM_LENGTH, termProblem } from './search-results';

export function SearchBox({ currentTerm }: { currentTerm?: string }) {
  const [term, setTerm] = useState(currentTerm ?? '');
  const [problem, setProblem] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  // Another search's results (a link, Back) show its term in the box.
  useEffect(() => {
    setTerm(currentTerm ?? '');
    setProblem(undefined);
  }, [currentTerm]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = termProblem(term);
    setProblem(found);
    if (found) {
      input.current?.focus();
      return;
    }
    navigate(searchHref(term.trim()));
  };

  return (
    <form className="bo-search" role="search" action={SEARCH_PATH} method="get" onSubmit={onSubmit}>
      <label className="visually-hidden" htmlFor="bo-search-term">
        Search the records
      </label>
      <input
        ref={input}
        id="bo-search-term"
        className="bo-search__input"
        type="search"
        name="searchTerm"
        placeholder="Search…"
        autoComplete="off"
        maxLength={MAX_SEARCH_TERM_LENGTH}
        value={term}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'bo-search-problem' : undefined}
        onChange={(event) => {
          setTerm(event.target.value);
          if (problem) setProblem(undefined);
        }}
      />
      <button className="bo-search__button" type="submit">
        Search
      </button>
      {problem && (
        <p id="bo-search-problem" className="bo-search__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
