/**
 * Conditional GETs for clients without an HTTP cache (a server, a script): the body of a 200 that carries an
 * ETag is kept, the next GET of the same URL sends If-None-Match with it, and a 304 is answered from the kept
 * body as the 200 it stands for. A browser has its own HTTP cache, which does this already (and which a
 * request carrying If-None-Match would bypass), so it is for a client made outside one:
 * createApiClient({ baseUrl, middleware: [conditionalGetMiddleware()] }).
 */
import type { Middleware } from 'openapi-fetch';

interface KeptAnswer {
  etag: string;
  body: ArrayBuffer;
  headers: [string, string][];
}

/** Bodies larger than this are not kept. */
const MAX_KEPT_BYTES = 1 << 20;

/** Keeps at most `limit` bodies, the least recently used dropped first. */
export function conditionalGetMiddleware(limit = 200): Middleware {
  const kept = new Map<string, KeptAnswer>();
  /** The requests this middleware made conditional, by request id. */
  const asked = new Set<string>();
  return {
    onRequest({ request, id }) {
      if (request.method !== 'GET' || request.headers.has('If-None-Match')) return undefined;
      const answer = kept.get(request.url);
      if (!answer) return undefined;
      request.headers.set('If-None-Match', answer.etag);
      asked.add(id);
      return request;
    },
    async onResponse({ request, response, id }) {
      const ours = asked.delete(id);
      if (request.method !== 'GET') return undefined;
      if (response.status === 304 && ours) {
        const answer = kept.get(request.url);
        if (!answer) return undefined;
        kept.delete(request.url);
        kept.set(request.url, answer);
        return new Response(answer.body.slice(0), { status: 200, headers: answer.headers });
      }
      const etag = response.headers.get('ETag');
      if (response.status !== 200 || !etag || (request.headers.has('If-None-Match') && !ours)) return undefined;
      const length = Number(response.headers.get('Content-Length') ?? 0);
      if (length > MAX_KEPT_BYTES) return undefined;
      const body = await response.clone().arrayBuffer();
      if (body.byteLength > MAX_KEPT_BYTES) return undefined;
      kept.delete(request.url);
      // The body is decoded: the coding and length headers describe what came over the wire, not it.
      const headers = [...response.headers].filter(
        ([name]) => name !== 'content-encoding' && name !== 'content-length',
      );
      kept.set(request.url, { etag, body, headers });
      if (kept.size > limit) kept.delete(kept.keys().next().value!);
      return undefined;
    },
    onError({ id }) {
      asked.delete(id);
    },
  };
}
