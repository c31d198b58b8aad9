/**
 * Node's response with headers that every answer carries unless it sets its own of the same name: the
 * security headers (security-headers.ts). They go in with the answer's own headers when Node writes them.
 * Setting them on the response before the answer (setHeader) costs more than the rest of a small answer's way
 * through the app: Node then checks and copies every header of the answer once more, one by one.
 *
 * The servers the project starts use it (SERVER_OPTIONS); on another server the gate sets the headers
 * one by one, with the same result.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import { MAX_HEADER_BYTES } from '../errors.ts';

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

export class SecuredResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** Headers written with the answer's unless it has its own of that name (any case). */
  defaultHeaders: Readonly<Record<string, string>> | undefined = undefined;

  override writeHead(statusCode: number, reason?: string | Headers, headers?: Headers): this {
    const defaults = this.defaultHeaders;
    if (defaults === undefined)
      return typeof reason === 'string'
        ? super.writeHead(statusCode, reason, headers)
        : super.writeHead(statusCode, reason);
    if (typeof reason !== 'string') {
      headers = reason;
      reason = undefined;
    }
    const merged = withDefaults(this, headers, defaults);
    return reason === undefined ? super.writeHead(statusCode, merged) : super.writeHead(statusCode, reason, merged);
  }
}

/** Lower-case names of the headers of each defaults object, found once. */
const lowerNamesOf = new WeakMap<object, ReadonlySet<string>>();

/** The answer's headers with the defaults it does not set itself (by setHeader before, or in headers). */
function withDefaults(
  response: ServerResponse,
  headers: Headers | undefined,
  defaults: Readonly<Record<string, string>>,
): Headers {
  let lowerNames = lowerNamesOf.get(defaults);
  if (!lowerNames)
    lowerNamesOf.set(defaults, (lowerNames = new Set(Object.keys(defaults).map((name) => name.toLowerCase()))));
  // Most answers set none of them (an API answer): then the defaults go first, and the answer's after them.
  if (headers !== undefined && !Array.isArray(headers)) {
    let clash = false;
    for (const key in headers) {
      if (lowerNames.has(key.toLowerCase())) {
        clash = true;
        break;
      }
    }
    if (!clash && !setBefore(response, defaults)) return Object.assign({}, defaults, headers);
  }
  const merged: Headers = headers === undefined ? {} : Array.isArray(headers) ? [...headers] : { ...headers };
  for (const name of Object.keys(defaults)) {
    if (response.hasHeader(name) || (headers !== undefined && names(headers, name.toLowerCase()))) continue;
    if (Array.isArray(merged)) merged.push(name, defaults[name]);
    else merged[name] = defaults[name];
  }
  return merged;
}

/** Whether one of the defaults was set on the response already (setHeader). */
function setBefore(response: ServerResponse, defaults: Readonly<Record<string, string>>): boolean {
  for (const name in defaults) if (response.hasHeader(name)) return true;
  return false;
}

/** Whether headers (an object, or Node's flat list of names and values) name the lower-case header name. */
function names(headers: Headers, lowerName: string): boolean {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === lowerName) return true;
    return false;
  }
  for (const key in headers) if (key.toLowerCase() === lowerName) return true;
  return false;
}

/** The options of the servers the project starts: its response class, and the largest request head Node takes. */
export const SERVER_OPTIONS = { ServerResponse: SecuredResponse, maxHeaderSize: MAX_HEADER_BYTES };
