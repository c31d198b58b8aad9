/**
 * The back office's reads ask the server each time, never the browser's HTTP cache alone. The API lets a
 * browser keep its GET answers for their x-cache-ttl (a record UI for 15 minutes, a list's records for 30 s);
 * the storefront's readers lose nothing by that, but here a write is followed by reads of what it changed (the
 * record page after a save, the list after a delete), which the browser would otherwise answer from its copy
 * of before the write. With `no-cache` the browser sends its copy's ETag and reuses the copy on a 304: a round
 * trip, not the whole answer. How long a read stays fresh in the page is TanStack Query's staleTime, as it is
 * the storefront's.
 */
import type { Middleware } from 'openapi-fetch';

export const revalidateReads: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' || request.cache === 'no-cache') return undefined;
    return new Request(request, { cache: 'no-cache' });
  },
};
