/**
 * How the project's servers take connections: site/main.ts, the test servers and the benchmarks' server all
 * serve with serveSite, so that what is tested and measured is what runs. Besides the response class and the
 * size of a request's head (SERVER_OPTIONS), it bounds what slow or greedy clients can hold: a request's
 * head, and the whole request, must arrive within a time (a client that trickles them is answered 408 and let
 * go), an idle kept-alive connection is closed, one client address may hold only so many connections at once,
 * and the process only so many in all. Requests Node refuses before the app are answered in the site's way.
 * A connection the server closes while its client may still be sending is closed lingering (lingerOnClose).
 */
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { clientErrorListener, MAX_HEADER_BYTES } from '../errors.ts';
import { addressKey, wholeNumberFromEnv } from '../limits/limits.ts';
import { SERVER_OPTIONS } from './secured-response.ts';
import { apiSecurityHeaders } from '../answers/security-headers.ts';

export interface ConnectionOptions {
  /** How long a request's line and headers may take to arrive, from the connection's opening or the request's first byte (ms); 0 for no limit. */
  headersTimeoutMs: number;
  /** How long the whole request, its body included, may take to arrive (ms); 0 for no limit. */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may stay idle between requests (ms); 0 for no limit. */
  keepAliveTimeoutMs: number;
  /** Connections one client address (an IPv6 /64) may hold open at once; 0 for no cap. Off behind a trusted proxy. */
  maxConnectionsPerAddress: number;
  /** Connections the process holds open at once, in all; 0 for no cap. */
  maxConnections: number;
}

export const DEFAULT_CONNECTIONS: ConnectionOptions = {
  // A browser sends a request's head (a few hundred bytes to 16 KB) in one or two packets: 20 s is ample on
  // the slowest mobile link, and a connection opened and never used is let go as soon. Node's default is 60 s.
  headersTimeoutMs: 20_000,
  // The largest request is a 10 MB file in base64 (14 MB), which takes 112 s at 1 Mbit/s, a slow mobile
  // uplink; every other body (1 MiB at most) takes 8 s at that rate. Node's default is 300 s.
  requestTimeoutMs: 120_000,
  // Node's default: the requests that follow a page (its app, pictures, first API calls) find the page's
  // connections open, and an idle connection costs about 10 KB meanwhile. Behind a proxy that keeps
  // connections to the server, set it above the proxy's idle timeout, or the proxy may send a request on a
  // connection the server is closing.
  keepAliveTimeoutMs: 5_000,
  // A browser opens at most 6 connections to a host over HTTP/1.1 and keeps them open a while after its last
  // request: 64 lets ten visitors behind one address (an office, a carrier's NAT) load pages at the same
  // moment, while one client holds no more than 1/150 of the process's connections.
  maxConnectionsPerAddress: 64,
  // About 100 MB of connections (5,000 connections with a request's head under way took 47 MB), far below
  // the open-file limit Node raises to the hard limit: a flood from many addresses leaves the process alive.
  maxConnections: 10_000,
};

/**
 * The connection options from the environment (timeouts in whole seconds); unset or empty variables keep the
 * defaults. Requests per connection are not capped (Node's maxRequestsPerSocket): the public rate limit counts
 * requests whatever connection they come on, and closing a busy connection only costs its client a new one.
 */
export function connectionOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectionOptions {
  const seconds = (name: string, fallbackMs: number) => wholeNumberFromEnv(env, name, fallbackMs / 1000) * 1000;
  const options = {
    headersTimeoutMs: seconds('HEADERS_TIMEOUT_SECONDS', DEFAULT_CONNECTIONS.headersTimeoutMs),
    requestTimeoutMs: seconds('REQUEST_TIMEOUT_SECONDS', DEFAULT_CONNECTIONS.requestTimeoutMs),
    keepAliveTimeoutMs: seconds('KEEP_ALIVE_TIMEOUT_SECONDS', DEFAULT_CONNECTIONS.keepAliveTimeoutMs),
    maxConnectionsPerAddress: wholeNumberFromEnv(
      env,
      'MAX_CONNECTIONS_PER_ADDRESS',
      DEFAULT_CONNECTIONS.maxConnectionsPerAddress,
    ),
    maxConnections: wholeNumberFromEnv(env, 'MAX_CONNECTIONS', DEFAULT_CONNECTIONS.maxConnections),
  };
  // The head is part of the request: Node refuses a head's time longer than the request's.
  if (options.requestTimeoutMs > 0 && options.headersTimeoutMs > options.requestTimeoutMs) {
    throw new Error(
      `HEADERS_TIMEOUT_SECONDS must not be more than REQUEST_TIMEOUT_SECONDS (${options.requestTimeoutMs / 1000})`,
    );
  }
  return options;
}

/**
 * The connections open from each client address (addressKey: an IPv6 /64 is one client), each let in up to
 * the cap. Only addresses with a connection open are kept.
 */
export class AddressConnections {
  private readonly open = new Map<string, number>();

  constructor(readonly cap: number) {}

  /** Counts a new connection from the address in; false, and not counted, when the address holds the cap already. */
  admit(address: string): boolean {
    const key = addressKey(address);
    const count = this.open.get(key) ?? 0;
    if (count >= this.cap) return false;
    this.open.set(key, count + 1);
    return true;
  }

  /** Counts out a connection that admit let in, once it has closed. */
  release(address: string): void {
    const key = addressKey(address);
    const count = this.open.get(key) ?? 0;
    if (count > 1) this.open.set(key, count - 1);
    else this.open.delete(key);
  }

  /** The connections open from the address's client. */
  countOf(address: string): number {
    return this.open.get(addressKey(address)) ?? 0;
  }

  /** The addresses with a connection open. */
  get addresses(): number {
    return this.open.size;
  }
}

/** Destroys, as soon as it opens, a connection from an address that holds the cap already. */
function capConnectionsPerAddress(server: Server, cap: number): void {
  const open = new AddressConnections(cap);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    // A connection the client reset before it was taken has no address left, and closes by itself.
    if (address === undefined) return;
    if (!open.admit(address)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => open.release(address));
  });
}

/**
 * How long a connection the server has closed its side of keeps reading, and throwing away, what its client
 * still sends (Apache's lingering close waits as long).
 */
export const LINGER_MS = 2_000;

/**
 * Closes a connection after its last answer in two steps: the server's side first, then, once the client has
 * closed its own or after LINGER_MS, the socket. Node closes the socket as soon as the answer is written, and
 * a socket closed with bytes of the client's still unread (the rest of a body refused unread: a 413, a guest
 * sent to sign in) is reset: the client's kernel then throws away the answer it holds and has not yet read,
 * and the client sees "connection reset" in place of the answer.
 */
function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return;
  if (socket.writable) socket.end();
  const linger = () => {
    if (socket.readableEnded) return void socket.destroy();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.once('end', () => socket.destroy());
    // What still comes is read: by the HTTP parser, which throws away the rest of a body nobody reads.
    socket.resume();
  };
  if (socket.writableFinished) linger();
  else socket.once('finish', linger);
}

/** Node's server (and the Node adapter, when it stops draining a body) close a connection by its destroySoon. */
function lingerOnClose(server: Server): void {
  server.on('connection', (socket: Socket) => {
    socket.destroySoon = () => lingeringClose(socket);
  });
}

/** Node's server options for the deadlines. */
function deadlines({ headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs }: ConnectionOptions) {
  const shorter = Math.min(...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0));
  return {
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Node looks for requests past their deadlines every connectionsCheckingInterval, 30 s by default (a 20 s
    // deadline would run to 50): a tenth of the shorter deadline, a second at most. Only connections with a
    // request under way are looked at.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shorter / 10))),
  };
}

interface ServeSiteOptions {
  fetch: Parameters<typeof serve>[0]['fetch'];
  hostname: string;
  /** 0 for any free port. */
  port: number;
  connections: ConnectionOptions;
  /**
   * A proxy in front (TRUST_PROXY=1, trustProxyOf): every connection then comes from it, so connections are
   * not counted per address.
   */
  trustProxy: boolean;
}

/** Serves fetch over HTTP on hostname:port, as every server of the project does (see above). */
export function serveSite(options: ServeSiteOptions, listening?: (info: AddressInfo) => void): Server {
  const { connections } = options;
  const serverOptions = { ...SERVER_OPTIONS, ...deadlines(connections) };
  const server = serve(
    { fetch: options.fetch, hostname: options.hostname, port: options.port, serverOptions },
    listening,
  ) as Server;
  // What Node refuses before the app sees it (an address over the size limit, a request too slow) is answered
  // in the site's way: a short page for a browser, the API's error shape for an API path.
  const errorOptions = {
    limitBytes: MAX_HEADER_BYTES,
    requestTimeoutMs: connections.requestTimeoutMs,
    headers: apiSecurityHeaders(false),
  };
  server.on('clientError', clientErrorListener(errorOptions));
  lingerOnClose(server);
  if (connections.maxConnections > 0) server.maxConnections = connections.maxConnections;
  if (connections.maxConnectionsPerAddress > 0 && !options.trustProxy)
    capConnectionsPerAddress(server, connections.maxConnectionsPerAddress);
  return server;
}
