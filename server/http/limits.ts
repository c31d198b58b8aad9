/**
 * Request limits: a body-size limit on every request with a body (larger only for the content-version
 * uploads), and per-address rate limits on what a guest may call and, stricter, on sign-in. Answers 413 and
 * 429 in the called path's error shape. Which operation a request calls is found once per route (the
 * router's own match), so a request costs one WeakMap lookup and, when limited, one Map lookup.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { matchedRoutes } from 'hono/route';
import { operationTable, type OperationId } from '../../generated/operations.ts';
import { systemClock, type AppOptions, type Clock, type LimitOptions } from '../app-options.ts';
import { SIGN_IN_PATH } from '../../web/src/login/paths.ts';
import { errorResponse, plainPage } from './errors.ts';
import { honoPath } from './operation.ts';
import { incomingHeader, type NodeEnv } from './request-header.ts';

export const DEFAULT_LIMITS: LimitOptions = {
  maxBodyBytes: 1024 * 1024,
  publicRequestsPerMinute: 600,
  signInAttemptsPerWindow: 10,
};

/** 10 MB of file data in base64 (the contract's maxLength, 13,981,016 characters) and the JSON around it. */
export const UPLOAD_MAX_BODY_BYTES = 13_981_016 + 64 * 1024;
/** The operations whose bodies carry a file. */
const UPLOAD_OPERATIONS: OperationId[] = ['createContentDocumentAndVersion', 'createContentVersion'];
/** The server-rendered pages. */
const PAGES = ['/', SIGN_IN_PATH];
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const PUBLIC_WINDOW_MS = 60_000;

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
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The client's address: the connection's remote address, or the first X-Forwarded-For entry when a proxy
 * in front is trusted to set it. Undefined for an in-process request (app.request), which has no socket.
 */
export function requestAddress(request: Request, env: unknown, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const first = incomingHeader(request, env, 'x-forwarded-for')?.split(',', 1)[0].trim();
    if (first) return first;
  }
  return (env as NodeEnv)?.incoming?.socket.remoteAddress;
}

/**
 * Requests the limits do not count (again): the ones the app makes to itself while rendering the page (the
 * page request was counted already), and the ones the front of the app counted before passing them on.
 */
const uncountedRequests = new WeakSet<Request>();

/** Marks a request the app sends to itself, which rate limits do not count. */
export function inProcess(request: Request): Request {
  uncountedRequests.add(request);
  return request;
}

/**
 * Counts a request to a guest-callable operation against the public limit, before routing (the front of
 * the app): 0 when within the limit (the request is then not counted again), else the seconds to wait.
 */
export function countGuestRequest(limits: RequestLimits, request: Request, env: unknown): number {
  const { publicLimiter, trustProxy } = limits;
  if (!publicLimiter || uncountedRequests.has(request)) return 0;
  const address = requestAddress(request, env, trustProxy);
  if (address === undefined) return 0;
  const retryAfter = publicLimiter.hit(addressKey(address));
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

/** The limit options from the environment; unset or empty variables keep the defaults. */
export function limitOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): LimitOptions {
  const read = (name: string, fallback: number) => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, 0 or more (got ${raw})`);
    return value;
  };
  return {
    maxBodyBytes: read('MAX_BODY_BYTES', DEFAULT_LIMITS.maxBodyBytes),
    publicRequestsPerMinute: read('PUBLIC_REQUESTS_PER_MINUTE', DEFAULT_LIMITS.publicRequestsPerMinute),
    signInAttemptsPerWindow: read('SIGN_IN_ATTEMPTS_PER_WINDOW', DEFAULT_LIMITS.signInAttemptsPerWindow),
  };
}

/** TRUST_PROXY=1: a proxy in front sets X-Forwarded-For and X-Forwarded-Proto (read as the sessions read it). */
export function trustProxyOf(options: AppOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return options.trustProxy ?? env.TRUST_PROXY === '1';
}

interface RoutePolicy {
  limiter?: FixedWindowLimiter;
  /** The body-size check, or undefined when there is no limit. */
  body?: MiddlewareHandler;
  /** A page, whose refusal is a document a visitor can read rather than an API error. */
  page?: boolean;
}

function tooLarge(maxBytes: number) {
  return (c: Context) => errorResponse(c, 413, 'REQUEST_TOO_LARGE', `The request body is larger than the limit of ${maxBytes} bytes.`);
}

function tooManyRequests(c: Context, limiter: FixedWindowLimiter, retryAfterSeconds: number, page: boolean): Response {
  const message = `Too many requests from this address: try again in ${retryAfterSeconds} seconds.`;
  const response = page ? plainPage(c, 429, 'Too many requests', message) : errorResponse(c, 429, 'REQUEST_LIMIT_EXCEEDED', message);
  const { headers } = response;
  headers.set('Retry-After', String(retryAfterSeconds));
  headers.set('RateLimit-Limit', String(limiter.limit));
  headers.set('RateLimit-Remaining', '0');
  headers.set('RateLimit-Reset', String(retryAfterSeconds));
  headers.set('RateLimit-Policy', `${limiter.limit};w=${limiter.windowMs / 1000}`);
  headers.set('Cache-Control', 'no-store');
  return response;
}

/** The limits middleware, with the public limiter the front of the app counts with. */
export type RequestLimits = MiddlewareHandler & {
  readonly publicLimiter?: FixedWindowLimiter;
  readonly trustProxy: boolean;
  /** The operationIds a guest may call: the ones the public limit counts. */
  readonly guestOperations: ReadonlySet<string>;
};

/** The limits middleware; mount it before the routes, for every path. */
export function requestLimits(options: AppOptions = {}): RequestLimits {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const clock = options.clock ?? systemClock;
  const trustProxy = trustProxyOf(options);
  const publicLimiter = limits.publicRequestsPerMinute > 0 ? new FixedWindowLimiter(limits.publicRequestsPerMinute, PUBLIC_WINDOW_MS, clock) : undefined;
  const signInLimiter = limits.signInAttemptsPerWindow > 0 ? new FixedWindowLimiter(limits.signInAttemptsPerWindow, SIGN_IN_WINDOW_MS, clock) : undefined;

  const bodyCheck = (maxBytes: number) => (maxBytes > 0 ? bodyLimit({ maxSize: maxBytes, onError: tooLarge(maxBytes) }) : undefined);
  const defaultBody = bodyCheck(limits.maxBodyBytes);
  const uploadBody = limits.maxBodyBytes > 0 ? bodyCheck(Math.max(limits.maxBodyBytes, UPLOAD_MAX_BODY_BYTES)) : undefined;

  const guestRoutes = guestOperationsOf();
  const uploadRoutes = new Set(UPLOAD_OPERATIONS.map(routeKeyOf));
  const signInRoute = routeKeyOf('signIn');
  // The pages are what a guest asks for most; the API calls they make to the app are not counted again.
  for (const page of PAGES) guestRoutes.set(`GET ${page}`, 'page');

  const pageRoutes = new Set(PAGES.map((page) => `GET ${page}`));
  const policyOfKey = (key: string): RoutePolicy => ({
    limiter: key === signInRoute ? signInLimiter : guestRoutes.has(key) ? publicLimiter : undefined,
    body: uploadRoutes.has(key) ? uploadBody : defaultBody,
    page: pageRoutes.has(key),
  });
  const defaultPolicy: RoutePolicy = { body: defaultBody };
  const policies = new WeakMap<object, RoutePolicy>();

  /** The policy of the first route answering this method (middleware for every method is skipped). */
  const policyOf = (c: Context): RoutePolicy => {
    for (const route of matchedRoutes(c)) {
      if (route.method === 'ALL') continue;
      let policy = policies.get(route);
      if (!policy) {
        policy = policyOfKey(`${route.method} ${route.path}`);
        policies.set(route, policy);
      }
      return policy;
    }
    return defaultPolicy;
  };

  const limitRequests: MiddlewareHandler = async (c, next) => {
    const policy = policyOf(c);
    if (policy.limiter && !uncountedRequests.has(c.req.raw)) {
      const address = requestAddress(c.req.raw, c.env, trustProxy);
      if (address !== undefined) {
        const retryAfter = policy.limiter.hit(addressKey(address));
        if (retryAfter) return tooManyRequests(c, policy.limiter, retryAfter, policy.page === true);
      }
    }
    // A GET or HEAD has no body; asking would make the Node adapter build the whole Request.
    const method = c.req.method;
    if (policy.body && method !== 'GET' && method !== 'HEAD' && c.req.raw.body) return policy.body(c, next);
    await next();
  };
  return Object.assign(limitRequests, { publicLimiter, trustProxy, guestOperations: new Set(guestRoutes.values()) });
}
