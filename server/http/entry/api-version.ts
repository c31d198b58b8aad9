/**
 * The platform's API versions: a path under /services/data/vNN.0/ or /lwr/apex/vNN.0/ answers under every
 * version the contract names (x-api-versions, from v41.0, the first UI API release, to v65.0), as code
 * written against the platform at any of them expects.
 *
 * Before everything else (server/app.ts), a request at an older version is handed on as the same request at
 * the current version, so that routing, the caches and the handlers know one version; its answer then says
 * the version that was asked: the URLs in a JSON body and in Location name it, and the ETag carries it
 * ("…-v55"), so that neither a client nor a cache takes one version's answer for another's. The request is
 * handed on without Accept-Encoding, so that the body is plain text to rewrite. A version past the current
 * one, or a segment that is not vNN.0, answers 404 in the platform's NOT_FOUND shape.
 */
import type { IncomingMessage } from 'node:http';
import { API_VERSIONS } from '../../../generated/operations.ts';
import { apiSecurityHeaders } from '../answers/security-headers.ts';
import { clientScheme, targetOf, type NodeEnv } from '../connections/request-header.ts';
import { NOT_FOUND_MESSAGE } from '../../platform/core/errors.ts';
import type { Dispatch } from './gate.ts';

const first = Number(API_VERSIONS.first.slice(1, -2));
const current = Number(API_VERSIONS.current.slice(1, -2));
const CURRENT = API_VERSIONS.current;

/** The version segment of a versioned path: /services/data/<segment>/… or /lwr/apex/<segment>/…. */
const VERSIONED = /^\/(?:services\/data|lwr\/apex)\/([^/?#]*)/;
const VERSION = /^v(\d{2})\.0$/;

/** The paths of the current version that an answer names, and how they read at another version. */
const CURRENT_PATHS = new RegExp(`/(services/data|lwr/apex)/${CURRENT.replace('.', '\\.')}(?=/)`, 'g');

/** The ETag of an answer at an older version. */
const versionedTag = (tag: string, version: string) => tag.replace(/"$/, `-${version}"`);

/** The current version's tags an If-None-Match at an older version stands for: only the tags of that version. */
function currentTags(ifNoneMatch: string, version: string): string | undefined {
  if (ifNoneMatch.trim() === '*') return '*';
  const suffix = `-${version}"`;
  const tags = ifNoneMatch
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.endsWith(suffix))
    .map((tag) => `${tag.slice(0, -suffix.length)}"`);
  return tags.length ? tags.join(', ') : undefined;
}

export function apiVersionStage(dispatch: Dispatch, trustProxy: boolean): Dispatch {
  return (request, env, executionCtx) => {
    const path = targetOf(request.url);
    if (!(path.startsWith('/services/data/') || path.startsWith('/lwr/apex/')))
      return dispatch(request, env, executionCtx);
    const segment = VERSIONED.exec(path)?.[1] ?? '';
    if (segment === CURRENT) return dispatch(request, env, executionCtx);
    const number = Number(VERSION.exec(segment)?.[1]);
    if (!(number >= first && number < current)) return notFound(request, env, trustProxy);
    return atCurrentVersion(dispatch, request, env, executionCtx, segment);
  };
}

function notFound(request: Request, env: unknown, trustProxy: boolean): Response {
  return new Response(JSON.stringify([{ errorCode: 'NOT_FOUND', message: NOT_FOUND_MESSAGE }]), {
    status: 404,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache',
      ...apiSecurityHeaders(clientScheme(request, env, trustProxy) === 'https'),
    },
  });
}

async function atCurrentVersion(
  dispatch: Dispatch,
  request: Request,
  env: unknown,
  executionCtx: Parameters<Dispatch>[2],
  version: string,
): Promise<Response> {
  const url = request.url.replace(`/${version}/`, `/${CURRENT}/`);
  const headers = new Headers(request.headers);
  headers.delete('accept-encoding');
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const tags = currentTags(ifNoneMatch, version);
    if (tags === undefined) headers.delete('if-none-match');
    else headers.set('if-none-match', tags);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null;
  const current = new Request(url, {
    method: request.method,
    headers,
    signal: request.signal,
    ...(hasBody ? { body: request.body, duplex: 'half' } : {}),
  } as RequestInit);
  const answer = await dispatch(current, envAt(env, targetOf(url), headers), executionCtx);
  return answerAt(answer, version);
}

/** The Node env with the request's target and headers as handed on (what the app reads of the request there). */
function envAt(env: unknown, target: string, headers: Headers): unknown {
  const incoming = (env as NodeEnv)?.incoming;
  if (!incoming) return env;
  const nodeHeaders: IncomingMessage['headers'] = {};
  headers.forEach((value, name) => (nodeHeaders[name] = value));
  return {
    ...(env as object),
    incoming: Object.create(incoming, { url: { value: target }, headers: { value: nodeHeaders } }),
  };
}

/** The answer as the asked version gives it: its URLs and its ETag name that version. */
async function answerAt(answer: Response, version: string): Promise<Response> {
  const headers = new Headers(answer.headers);
  const etag = headers.get('etag');
  if (etag) headers.set('etag', versionedTag(etag, version));
  const location = headers.get('location');
  if (location) headers.set('location', location.replace(CURRENT_PATHS, `/$1/${version}`));
  if (!/^application\/json\b/.test(headers.get('content-type') ?? '') || answer.body === null)
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  const text = (await answer.text()).replace(CURRENT_PATHS, `/$1/${version}`);
  headers.delete('content-length');
  return new Response(text, { status: answer.status, statusText: answer.statusText, headers });
}
