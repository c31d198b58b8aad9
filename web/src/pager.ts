export type PageListItem = number | 'ellipsis';

/** Above this many pages the list is shortened with ellipses (docs/product-spec.md §9). */
const MAX_PAGES_SHOWN_IN_FULL = 7;
/** How many pages the shortened list shows together at its start or its end. */
const EDGE_RUN = 5;

/**
 * The page buttons to show (docs/product-spec.md §9): every page if there are 7 or fewer; otherwise
 * 1-5 … last while the current page is 4 or less, 1 … the last 5 once it is within 3 of the end,
 * else 1 … current-1 current current+1 … last.
 */
export function pageList(current: number, total: number): PageListItem[] {
  const pageCount = Math.max(0, Math.floor(total));
  if (pageCount === 0) return [];
  const page = Math.min(Math.max(1, Math.floor(current)), pageCount);

  if (pageCount <= MAX_PAGES_SHOWN_IN_FULL) return range(1, pageCount);
  if (page <= EDGE_RUN - 1) return [...range(1, EDGE_RUN), 'ellipsis', pageCount];
  if (page >= pageCount - 3) return [1, 'ellipsis', ...range(pageCount - EDGE_RUN + 1, pageCount)];
  return [1, 'ellipsis', page - 1, page, page + 1, 'ellipsis', pageCount];
}

export function pageCountFor(totalItems: number, pageSize: number): number {
  return totalItems > 0 ? Math.ceil(totalItems / pageSize) : 0;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}
