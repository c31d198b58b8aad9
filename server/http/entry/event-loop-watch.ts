/**
 * Watches the event loop: while requests are under way, a timer notes how late it runs; a lateness over the
 * threshold is a stall, in which no other request could be answered. Each request under way during a stall
 * is told of it, and a request that lived through one over the threshold is reported when it ends, with its
 * method, path, operation, size of input and time. Whoever ran during the stall was one of the requests
 * reported; with several under way, the report names them all (and how many there were).
 */
import { operationTable, type OperationId } from '../../../generated/operations.ts';
import type { NodeEnv } from '../connections/request-header.ts';

/** A request that lived through a stall of the event loop over the threshold. */
export interface BlockedRequest {
  method: string;
  /** The path and query, cut to 200 characters. */
  target: string;
  /** The operation the method and path name, when they name one of the contract's. */
  operationId: string | undefined;
  /** The size of its input: the body's Content-Length, else the length of the path and query. */
  inputBytes: number;
  /** The longest stall while it was under way (milliseconds). */
  blockedMs: number;
  /** From its arrival to its answer (milliseconds). */
  tookMs: number;
  /** How many requests (this one included) were under way during that stall. */
  underWay: number;
}

export interface EventLoopWatchOptions {
  /** A stall at least this long is reported (milliseconds); default 100. */
  thresholdMs?: number;
  /** Told of every request that lived through such a stall; default a line on the console. */
  onBlocked?: (blocked: BlockedRequest) => void;
}

/** How often the timer runs while requests are under way: a lateness under this is not seen. */
const TICK_MS = 20;

interface UnderWay {
  request: Request;
  env: unknown;
  startedAt: number;
  blockedMs: number;
  underWay: number;
}

type Fetch<E, C> = (request: Request, env?: E, executionCtx?: C) => Response | Promise<Response>;

/**
 * The contract's operation that a method and path call, found by its path template (those with fewer
 * parameters first, as the router prefers a literal segment); for reports, which are rare.
 */
export function operationAt(method: string, path: string): string | undefined {
  templates ??= (Object.keys(operationTable) as OperationId[])
    .map((operationId) => {
      const { method, path } = operationTable[operationId];
      const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      return {
        operationId,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${pattern}$`),
        parameters: path.split('{').length,
      };
    })
    .sort((a, b) => a.parameters - b.parameters);
  return templates.find((template) => template.method === method && template.pattern.test(path))?.operationId;
}
let templates: { operationId: string; method: string; pattern: RegExp; parameters: number }[] | undefined;

/** Logs a blocked request in one line. */
function logBlocked(blocked: BlockedRequest): void {
  const operation = blocked.operationId ? ` (${blocked.operationId})` : '';
  console.warn(
    `The event loop was blocked ${Math.round(blocked.blockedMs)} ms while handling ${blocked.method} ${blocked.target}${operation}: ` +
      `${blocked.inputBytes} bytes of input, answered in ${Math.round(blocked.tookMs)} ms, ${blocked.underWay} request(s) under way`,
  );
}

export class EventLoopWatch {
  readonly thresholdMs: number;
  private readonly onBlocked: (blocked: BlockedRequest) => void;
  private readonly underWay = new Set<UnderWay>();
  private timer: NodeJS.Timeout | undefined;
  private lastTick = 0;

  constructor(options: EventLoopWatchOptions = {}) {
    this.thresholdMs = options.thresholdMs ?? 100;
    this.onBlocked = options.onBlocked ?? logBlocked;
  }

  /** fetch, with every request it handles watched. */
  wrap<E, C>(fetch: Fetch<E, C>): Fetch<E, C> {
    return (request, env, executionCtx) => {
      const startedAt = performance.now();
      const answer = fetch(request, env, executionCtx);
      if (!(answer instanceof Promise)) {
        // Answered at once: the stall, if any, was this request's own.
        const tookMs = performance.now() - startedAt;
        if (tookMs >= this.thresholdMs)
          this.report({ request, env, startedAt, blockedMs: tookMs, underWay: 1 }, tookMs);
        return answer;
      }
      const entry: UnderWay = { request, env, startedAt, blockedMs: 0, underWay: 0 };
      this.add(entry);
      return answer.finally(() => this.end(entry));
    };
  }

  private add(entry: UnderWay) {
    this.underWay.add(entry);
    if (this.timer) return;
    this.lastTick = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  private tick() {
    const now = performance.now();
    const stallMs = now - this.lastTick - TICK_MS;
    this.lastTick = now;
    // Stopped at a tick with nothing under way, not as each request ends: a timer made and cleared per request
    // would cost a steady stream of requests more than the watch itself.
    if (this.underWay.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    if (stallMs < this.thresholdMs) return;
    for (const entry of this.underWay) {
      if (stallMs > entry.blockedMs) {
        entry.blockedMs = stallMs;
        entry.underWay = this.underWay.size;
      }
    }
  }

  private end(entry: UnderWay) {
    // The timer may not have run since the stall that delayed this answer: look once more.
    this.tick();
    this.underWay.delete(entry);
    if (entry.blockedMs >= this.thresholdMs) this.report(entry, performance.now() - entry.startedAt);
  }

  private report(entry: UnderWay, tookMs: number) {
    const { request, env } = entry;
    const incoming = (env as NodeEnv)?.incoming;
    const url = incoming?.url ?? request.url.slice(request.url.indexOf('/', request.url.indexOf('//') + 2));
    const path = url.split('?', 1)[0];
    const contentLength = Number(incoming?.headers['content-length'] ?? request.headers.get('content-length') ?? 0);
    this.onBlocked({
      method: request.method,
      target: url.slice(0, 200),
      operationId: operationAt(request.method, path),
      inputBytes: contentLength > 0 ? contentLength : url.length,
      blockedMs: entry.blockedMs,
      tookMs,
      underWay: Math.max(1, entry.underWay),
    });
  }
}
