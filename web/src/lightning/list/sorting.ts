/**
 * The order of a list view's records as the list records operation takes it: `sortBy` names a field, with `-`
 * before it for descending (several, comma-separated; the server adds Id as the last). The back office sorts by
 * one column at a time, as the platform's list views do.
 */

export interface ColumnSort {
  fieldApiName: string;
  ascending: boolean;
}

/** The first field of a sortBy ("-Name,Id" → Name, descending); undefined for none. */
export function sortOf(sortBy: string | null | undefined): ColumnSort | undefined {
  const first = sortBy?.split(',')[0]?.trim();
  if (!first || first === '-') return undefined;
  return first.startsWith('-')
    ? { fieldApiName: first.slice(1), ascending: false }
    : { fieldApiName: first, ascending: true };
}

/** The sortBy of a column's header when clicked: ascending first, then the other way round. */
export function nextSortBy(fieldApiName: string, current: ColumnSort | undefined): string {
  const ascending = current?.fieldApiName === fieldApiName ? !current.ascending : true;
  return ascending ? fieldApiName : `-${fieldApiName}`;
}

/** The value of a column header's aria-sort. */
export function ariaSortOf(fieldApiName: string, current: ColumnSort | undefined): 'ascending' | 'descending' | 'none' {
  if (current?.fieldApiName !== fieldApiName) return 'none';
  return current.ascending ? 'ascending' : 'descending';
}
