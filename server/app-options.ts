/**
 * What a server instance may be given besides its database: a clock (tests move it), session lifetimes and
 * request limits, the pages. site/main.ts builds them from the environment; tests pass their own.
 */
import type { Context } from 'hono';
import type { EventLoopWatchOptions } from './http/entry/event-loop-watch.ts';
import type { ResultCache, ResultCacheOptions } from './cache/result-cache.ts';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface SessionOptions {
  /** A session ends after this long without a request (default 30 minutes). */
  idleTimeoutSeconds: number;
  /** A session ends this long after sign-in, whatever happens (default 8 hours). */
  absoluteTimeoutSeconds: number;
}

export interface LimitOptions {
  /** Largest request body in bytes (413 above it). */
  maxBodyBytes: number;
  /** Requests per client address and minute on operations a guest may call; 0 turns the limit off. */
  publicRequestsPerMinute: number;
  /** Sign-in attempts per client address and 15 minutes; 0 turns the limit off. */
  signInAttemptsPerWindow: number;
  /** Inquiries (submitInquiry, and the inquiry form's page) per client address and 10 minutes; 0 turns the limit off. */
  inquiriesPerWindow: number;
}

export interface AppOptions {
  clock?: Clock;
  /** URLs in one sitemap file at most, past which /sitemap.xml is an index of files (default 50,000, the protocol's limit). */
  sitemapMaxUrls?: number;
  session?: Partial<SessionOptions>;
  limits?: Partial<LimitOptions>;
  /** Whether X-Forwarded-Proto/-Host come from a trusted proxy; default TRUST_PROXY=1. */
  trustProxy?: boolean;
  /**
   * The pages (the Contact Us page and the sign-in page), rendered by the web app: given the web app's
   * build folder and how to call the API in process, the handler of a page request. Without it, the app
   * serves the API only.
   */
  pages?: PagesRenderer;
  /** How much the replay stage keeps for signed-in users (server/http/answers/answer-cache.ts); its defaults otherwise. */
  answerCache?: Partial<AnswerCacheBounds>;
  /** What is reported of requests under way while the event loop stalls (server/http/entry/event-loop-watch.ts). */
  eventLoop?: EventLoopWatchOptions;
}

export interface AnswerCacheBounds {
  /** Request targets cached at most. */
  targets: number;
  /** The length of the JSON cached, in all, at most (characters). */
  size: number;
}

/**
 * Makes the handler of page requests; fetchApi calls the app's own API without the network, changes subscribes
 * to every change of what a guest's page shows. The handler may keep guests' pages in a cache of its own.
 */
type PagesRenderer = (setup: {
  webRoot: string;
  fetchApi: (request: Request) => Response | Promise<Response>;
  changes: ResultCacheOptions['subscribe'];
}) => ((c: Context) => Response | Promise<Response>) & { cache?: ResultCache };
