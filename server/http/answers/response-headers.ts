/** Headers added to an answer once it is made, and the connection's end when a large body was left unread. */

/** An answer with one more header: on the answer itself, or on a copy when its headers are immutable (a cached or static answer). */
export function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.append(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.append(name, value);
    return copy;
  }
}

/** A body the app may leave unread and let the Node adapter drain (it gives up after half a second). */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * An answer given without reading a large body (a guest refused before its upload is read, a body over the
 * limit, a cross-site request): the connection ends with it, and says so, since the rest of the body is not
 * read in time for the connection to carry another request, and a client that sent one on it would see it fail.
 */
export function closeIfBodyUnread(request: Request, response: Response): Response {
  if (request.bodyUsed || response.headers.get('Connection')) return response;
  // The declared length first: asking for request.body makes the Node adapter build a web Request around it.
  const length = Number(request.headers.get('content-length') ?? NaN);
  if (length <= SMALL_BODY_BYTES || !request.body) return response;
  return withHeader(response, 'Connection', 'close');
}
