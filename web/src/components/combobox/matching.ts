/**
 * Searching and type-ahead for the combobox: pure functions over a search index built once per options
 * list, so that filtering ~250 countries on every keystroke is a scan of precomputed strings.
 */
export interface ComboboxOption {
  value: string;
  label: string;
  description?: string;
}

export interface SearchEntry<Option extends ComboboxOption = ComboboxOption> {
  option: Option;
  /** The label lower-cased without diacritics. */
  folded: string;
  /** Where each word of the folded label starts. */
  wordStarts: number[];
}

/** A value made by make() at the first call, and the same one at every later call. */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Lower case without diacritics, so that "cote" finds "Côte d'Ivoire" and "sao" finds "São Tomé". */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLocaleLowerCase('en-US');
}

export function buildSearchIndex<Option extends ComboboxOption>(options: readonly Option[]): SearchEntry<Option>[] {
  return options.map((option) => {
    const folded = fold(option.label);
    const wordStarts: number[] = [];
    for (let index = 0; index < folded.length; index++) {
      if (index === 0 || !/[a-z0-9]/.test(folded[index - 1])) wordStarts.push(index);
    }
    return { option, folded, wordStarts };
  });
}

/**
 * The options whose label contains the query: first those that start with it, then those with a word
 * that starts with it, then the rest; the options' own order within each group.
 */
export function filterOptions<Option extends ComboboxOption>(
  index: readonly SearchEntry<Option>[],
  query: string,
): Option[] {
  const needle = fold(query.trim());
  if (needle === '') return index.map((entry) => entry.option);
  const starts: Option[] = [];
  const wordStarts: Option[] = [];
  const contains: Option[] = [];
  for (const entry of index) {
    const at = entry.folded.indexOf(needle);
    if (at === -1) continue;
    if (at === 0) starts.push(entry.option);
    else if (entry.wordStarts.some((start) => entry.folded.startsWith(needle, start))) wordStarts.push(entry.option);
    else contains.push(entry.option);
  }
  return [...starts, ...wordStarts, ...contains];
}

/** How long a pause in typing ends a type-ahead search (docs/product-spec.md §9). */
export const TYPEAHEAD_RESET_MS = 700;

/**
 * The option type-ahead moves to: the first label starting with the typed characters, searching from
 * the active option onwards (after it when one character is typed, so that repeating a letter cycles
 * through the options starting with it); -1 when none matches.
 */
export function typeaheadMatch(foldedLabels: readonly string[], buffer: string, activeIndex: number): number {
  const count = foldedLabels.length;
  if (count === 0 || buffer === '') return -1;
  const typed = fold(buffer);
  const sameLetter = [...typed].every((char) => char === typed[0]);
  const needle = sameLetter ? typed[0] : typed;
  const start = activeIndex < 0 ? 0 : sameLetter ? activeIndex + 1 : activeIndex;
  for (let step = 0; step < count; step++) {
    const index = (start + step) % count;
    if (foldedLabels[index].startsWith(needle)) return index;
  }
  return -1;
}
