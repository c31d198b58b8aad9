/**
 * Request limits: a body-size limit on every request with a body (larger only for the content-version
 * uploads and the CSV import's files), and per-address rate limits on what a guest may call and, stricter, on
 * sign-in. Answers 413 and 429 in the called path's error shape. Which operation a request calls is found once per route (the
 * router's own match), so a request costs one WeakMap lookup and, when limited, one Map lookup.
 */
import { METHODS } from 'node:http';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { matchedRoutes } from 'hono/route';
import { operationTable, type OperationId } from '../../../generated/operations.ts';
import { routes } from '../../../generated/routes.ts';
import { systemClock, type AppOptions, type Clock, type LimitOptions } from '../../app-options.ts';
import { SIGN_IN_PATH } from '../../../common/sign-in.ts';
import { INQUIRY_ROUTE, RECORD_IMPORT_ROUTE } from '../../../common/pages.ts';
import { errorResponse, plainPage } from '../errors.ts';
import { honoPath } from '../operations/operation.ts';
import { incomingHeader, type NodeEnv } from '../connections/request-header.ts';
import type { Database } from '../../db/connection.ts';
import { SharedWindowLimiter } from './shared-limiter.ts';
import { closeIfBodyUnread } from '../answers/response-headers.ts';
import { bodySizeCheck } from './body-size.ts';
import { MAX_FILE_BYTES } from '../../platform/import/parse.ts';

/** A rate limit: in memory (one process, PGlite) or counted in the shared database (PostgreSQL). */
type RateLimiter = FixedWindowLimiter | SharedWindowLimiter;

export const DEFAULT_LIMITS: LimitOptions = {
  maxBodyBytes: 1024 * 1024,
  publicRequestsPerMinute: 600,
  signInAttemptsPerWindow: 10,
  inquiriesPerWindow: 5,
};

/** 10 MB of file data in base64 (the contract's maxLength, 13,981,016 characters) and the JSON around it. */
export const UPLOAD_MAX_BODY_BYTES = 13_981_016 + 64 * 1024;
/** The import's multipart body: the file (25 MB at most), and 64 KiB for the parts' framing and the options. */
export const IMPORT_MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024;
/** The import's routes whose bodies carry the file (server/routes/record-import.ts). */
const IMPORT_UPLOAD_ROUTES = new Set([`POST ${RECORD_IMPORT_ROUTE}/dry-run`, `POST ${RECORD_IMPORT_ROUTE}/commit`]);
/** The operations whose bodies carry a file. */
const UPLOAD_OPERATIONS: OperationId[] = ['createContentDocumentAndVersion', 'createContentVersion'];
/** The server-rendered pages. */
const PAGES = ['/', SIGN_IN_PATH, INQUIRY_ROUTE];
const SIGN_IN_WINDOW_MS = 15 * 60_000;
const PUBLIC_WINDOW_MS = 60_000;
const INQUIRY_WINDOW_MS = 10 * 60_000;
/** The inquiry form's page posted without JavaScript: it sends an inquiry, as submitInquiry does. */
const INQUIRY_PAGE_ROUTE = `POST ${INQUIRY_ROUTE}`;

/**
 * Counts requests per key in fixed windows. A window starts with a key's first request; keys whose
 * window has ended are dropped at most once per window, so memory stays bounded by the addresses seen
 * in one window.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Counts a request; 0 when it is within the limit, else the seconds until the key's window ends. */
  hit(key: string): number {
    const now = this.clock.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (!window) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    } else if (now >= window.resetAt) {
      window.count = 0;
      window.resetAt = now + this.windowMs;
    }
    window.count++;
    return window.count <= this.limit ? 0 : Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  /** Keys with a window under way. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (now >= window.resetAt) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/**
 * The rate-limit key of an address: IPv4 as is (an IPv4-mapped IPv6 address as its IPv4 address), IPv6
 * by its /64 prefix, since one client commonly holds a whole /64.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The client's address: the connection's remote address, or the first X-Forwarded-For entry when a proxy
 * in front is trusted to set it. Undefined for an in-process request (app.request), which has no socket.
 */
function requestAddress(request: Request, env: unknown, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const first = incomingHeader(request, env, 'x-forwarded-for')?.split(',', 1)[0].trim();
    if (first) return first;
  }
  return (env as NodeEnv)?.incoming?.socket.remoteAddress;
}

/**
 * Requests the limits do not count (again): the ones the app makes to itself while rendering the page (the
 * page request was counted already), and the ones the replay stage counted before passing them on.
 */
const uncountedRequests = new WeakSet<Request>();

/** Marks a request the app sends to itself, which rate limits do not count. */
export function inProcess(request: Request): Request {
  uncountedRequests.add(request);
  return request;
}

/**
 * Counts a request to a guest-callable operation against the public limit, before routing (the replay stage of
 * the app): 0 when within the limit (the request is then not counted again), else the seconds to wait.
 */
export function countGuestRequest(limits: RequestLimits, request: Request, env: unknown): number {
  const { publicLimiter, trustProxy } = limits;
  if (!publicLimiter || uncountedRequests.has(request)) return 0;
  const address = requestAddress(request, env, trustProxy);
  if (address === undefined) return 0;
  const key = addressKey(address);
  // Counted in the shared database: answered here only from a fresh count; else passed on, uncounted, to the
  // middleware, which counts it there.
  const retryAfter =
    publicLimiter instanceof SharedWindowLimiter ? (publicLimiter.hitIfKnown(key) ?? -1) : publicLimiter.hit(key);
  if (retryAfter < 0) return 1;
  // Over the limit, the request goes on to the middleware, which counts it again and answers 429.
  if (!retryAfter) uncountedRequests.add(request);
  return retryAfter;
}

/** "METHOD /path/:param" of every operation a guest may call (its security lists {}), and its operationId. */
export function guestOperationsOf(): Map<string, string> {
  const operations = new Map<string, string>();
  for (const [operationId, { guest }] of Object.entries(operationTable)) {
    if (guest) operations.set(routeKeyOf(operationId as OperationId), operationId);
  }
  return operations;
}

/** The key of an operation's route as Hono registers it: "METHOD /path/:param". */
function routeKeyOf(operationId: OperationId): string {
  const { method, path } = operationTable[operationId];
  return `${method.toUpperCase()} ${honoPath(path)}`;
}

/** A whole number, 0 or more, from an environment variable; fallback when it is unset or empty. */
export function wholeNumberFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, 0 or more (got ${raw})`);
  return value;
}

/** The limit options from the environment; unset or empty variables keep the defaults. */
export function limitOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LimitOptions {
  const read = (name: string, fallback: number) => wholeNumberFromEnv(env, name, fallback);
  return {
    maxBodyBytes: read('MAX_BODY_BYTES', DEFAULT_LIMITS.maxBodyBytes),
    publicRequestsPerMinute: read('PUBLIC_REQUESTS_PER_MINUTE', DEFAULT_LIMITS.publicRequestsPerMinute),
    signInAttemptsPerWindow: read('SIGN_IN_ATTEMPTS_PER_WINDOW', DEFAULT_LIMITS.signInAttemptsPerWindow),
    inquiriesPerWindow: read('INQUIRIES_PER_WINDOW', DEFAULT_LIMITS.inquiriesPerWindow),
  };
}

/** TRUST_PROXY=1: a proxy in front sets X-Forwarded-For and X-Forwarded-Proto (read as the sessions read it). */
export function trustProxyOf(options: AppOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return options.trustProxy ?? env.TRUST_PROXY === '1';
}

interface RoutePolicy {
  limiter?: RateLimiter;
  /** The body-size check, or undefined when there is no limit. */
  body?: MiddlewareHandler;
  /** A page, whose refusal is a document a visitor can read rather than an API error. */
  page?: boolean;
}

function tooLarge(maxBytes: number) {
  return (c: Context) => {
    const response = errorResponse(
      c,
      413,
      'REQUEST_TOO_LARGE',
      `The request body is larger than the limit of ${maxBytes} bytes.`,
    );
    // The rest of the body is not read: the connection cannot carry another request, and the client must know
    // it before it sends one (else its next request on this connection fails).
    response.headers.set('Connection', 'close');
    return response;
  };
}

/**
 * The import's refusal of a file over its limit (413 FILE_TOO_LARGE), from Content-Length before any of the body
 * is read, or as soon as a body sent without one passes the limit: a larger body is never held whole.
 */
function fileTooLarge(c: Context) {
  const response = errorResponse(
    c,
    413,
    'FILE_TOO_LARGE',
    `The file is larger than the import's limit of 25 MB (${MAX_FILE_BYTES} bytes).`,
  );
  // As for any body refused unread: the connection cannot carry another request.
  response.headers.set('Connection', 'close');
  return response;
}

function tooManyRequests(c: Context, limiter: RateLimiter, retryAfterSeconds: number, page: boolean): Response {
  const message = `Too many requests from this address: try again in ${retryAfterSeconds} seconds.`;
  const response = page
    ? plainPage(c, 429, 'Too many requests', message)
    : errorResponse(c, 429, 'REQUEST_LIMIT_EXCEEDED', message);
  const { headers } = response;
  headers.set('Retry-After', String(retryAfterSeconds));
  headers.set('RateLimit-Limit', String(limiter.limit));
  headers.set('RateLimit-Remaining', '0');
  headers.set('RateLimit-Reset', String(retryAfterSeconds));
  headers.set('RateLimit-Policy', `${limiter.limit};w=${limiter.windowMs / 1000}`);
  headers.set('Cache-Control', 'no-store');
  return response;
}

/** The limits middleware, with the public limiter the replay stage counts with. */
export type RequestLimits = MiddlewareHandler & {
  readonly publicLimiter?: RateLimiter;
  readonly trustProxy: boolean;
  /** The operationIds a guest may call: the ones the public limit counts. */
  readonly guestOperations: ReadonlySet<string>;
  /** The paths of the GETs the public limit counts (none when there is no public limit). */
  readonly limitedReads: readonly string[];
};

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by the limits once they have checked the request. */
    limitsApplied: boolean;
  }
}

/** Every method but GET and HEAD: the requests that may carry a body. */
export const METHODS_WITH_BODY = METHODS.filter((method) => method !== 'GET' && method !== 'HEAD');

/**
 * The limits middleware; mount it before the routes where it applies (server/app.ts). Given a PostgreSQL
 * database, the rate limits are counted in it, so that every server process on it enforces them together.
 */
export function requestLimits(options: AppOptions = {}, db?: Database): RequestLimits {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? systemClock;
  const trustProxy = trustProxyOf(options);
  const limiter = (name: string, limit: number, windowMs: number): RateLimiter | undefined => {
    if (limit <= 0) return undefined;
    return db?.kind === 'postgres'
      ? new SharedWindowLimiter(name, limit, windowMs, db, clock)
      : new FixedWindowLimiter(limit, windowMs, clock);
  };
  const publicLimiter = limiter('public', limits.publicRequestsPerMinute, PUBLIC_WINDOW_MS);
  const signInLimiter = limiter('sign-in', limits.signInAttemptsPerWindow, SIGN_IN_WINDOW_MS);
  const inquiryLimiter = limiter('inquiry', limits.inquiriesPerWindow, INQUIRY_WINDOW_MS);

  const bodyCheck = (maxBytes: number) => (maxBytes > 0 ? bodySizeCheck(maxBytes, tooLarge(maxBytes)) : undefined);
  const defaultBody = bodyCheck(limits.maxBodyBytes);
  const uploadBody =
    limits.maxBodyBytes > 0 ? bodyCheck(Math.max(limits.maxBodyBytes, UPLOAD_MAX_BODY_BYTES)) : undefined;

  // The import's own limit, whatever the general one: the file's size is a rule of the import, not of the server.
  const importBody = bodySizeCheck(IMPORT_MAX_BODY_BYTES, fileTooLarge);

  const guestRoutes = guestOperationsOf();
  const uploadRoutes = new Set(UPLOAD_OPERATIONS.map(routeKeyOf));
  // An operation without a request body never reads one, so it has no size to refuse (nor a 413 to declare).
  const bodylessRoutes = new Set(
    (Object.keys(operationTable) as OperationId[])
      .filter((operationId) => !(routes[operationId] as { request?: { body?: unknown } }).request?.body)
      .map(routeKeyOf),
  );
  const signInRoute = routeKeyOf('signIn');
  const inquiryRoutes = new Set([routeKeyOf('submitInquiry'), INQUIRY_PAGE_ROUTE]);
  // The pages are what a guest asks for most; the API calls they make to the app are not counted again.
  for (const page of PAGES) guestRoutes.set(`GET ${page}`, 'page');

  const pageRoutes = new Set(PAGES.map((page) => `GET ${page}`));
  const policyOfKey = (key: string): RoutePolicy => ({
    limiter:
      key === signInRoute
        ? signInLimiter
        : inquiryRoutes.has(key)
          ? inquiryLimiter
          : guestRoutes.has(key)
            ? publicLimiter
            : undefined,
    body: uploadRoutes.has(key)
      ? uploadBody
      : IMPORT_UPLOAD_ROUTES.has(key)
        ? importBody
        : bodylessRoutes.has(key)
          ? undefined
          : defaultBody,
    page: pageRoutes.has(key) || key === INQUIRY_PAGE_ROUTE,
  });
  const defaultPolicy: RoutePolicy = { body: defaultBody };
  const policies = new WeakMap<object, RoutePolicy>();

  /** The policy of the first route answering this method (middleware for every method, and the limits themselves, skipped). */
  const policyOf = (c: Context): RoutePolicy => {
    for (const route of matchedRoutes(c)) {
      if (route.method === 'ALL' || route.handler === limitRequests) continue;
      let policy = policies.get(route);
      if (!policy) {
        policy = policyOfKey(`${route.method} ${route.path}`);
        policies.set(route, policy);
      }
      return policy;
    }
    return defaultPolicy;
  };

  const limitRequests: MiddlewareHandler = (c, next) => {
    // Mounted on paths that may overlap (object-info/:objectApiName and object-info/batch/:objectApiNames): a
    // request is limited once.
    if (c.get('limitsApplied')) return next();
    c.set('limitsApplied', true);
    const policy = policyOf(c);
    // A GET or HEAD has no body (asking would make the Node adapter build the whole Request): with no rate
    // limit either, there is nothing to check.
    const method = c.req.method;
    if (!policy.limiter && (method === 'GET' || method === 'HEAD')) return next();
    return limited(c, next, policy);
  };

  const limited = async (c: Context, next: Next, policy: RoutePolicy): Promise<Response | void> => {
    if (policy.limiter && !uncountedRequests.has(c.req.raw)) {
      const address = requestAddress(c.req.raw, c.env, trustProxy);
      if (address !== undefined) {
        const key = addressKey(address);
        const retryAfter =
          policy.limiter instanceof SharedWindowLimiter ? await policy.limiter.hitExact(key) : policy.limiter.hit(key);
        if (retryAfter) {
          const response = tooManyRequests(c, policy.limiter, retryAfter, policy.page === true);
          // A GET or HEAD has no body (asking would make the Node adapter build the whole Request).
          return c.req.method === 'GET' || c.req.method === 'HEAD' ? response : closeIfBodyUnread(c.req.raw, response);
        }
      }
    }
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    if (policy.body) {
      // The body check answers itself when the body is over the limit.
      const refused = await policy.body(c, next);
      if (refused instanceof Response) c.res = refused;
    } else await next();
    const closing = closeIfBodyUnread(c.req.raw, c.res);
    if (closing !== c.res) c.res = closing;
  };
  // The reads the public rate limit counts: a guest's GETs and the pages ("GET /path/:param").
  const limitedReads = publicLimiter
    ? [...guestRoutes.keys()].filter((key) => key.startsWith('GET ')).map((key) => key.slice('GET '.length))
    : [];
  return Object.assign(limitRequests, {
    publicLimiter,
    trustProxy,
    guestOperations: new Set(guestRoutes.values()),
    limitedReads,
  });
}
