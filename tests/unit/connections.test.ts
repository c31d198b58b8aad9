/** The deadlines and caps on connections that need no server (server/http/connections/serve.ts): the count per address, the environment. */
import { describe, expect, it } from 'vitest';
import {
  AddressConnections,
  connectionOptionsFromEnv,
  DEFAULT_CONNECTIONS,
} from '../../server/http/connections/serve.ts';

describe('AddressConnections', () => {
  it('lets an address in up to the cap, and again once one of its connections has closed', () => {
    const open = new AddressConnections(2);
    expect([open.admit('203.0.113.7'), open.admit('203.0.113.7'), open.admit('203.0.113.7')]).toEqual([
      true,
      true,
      false,
    ]);
    // A refused connection was not counted: one release frees a place.
    expect(open.countOf('203.0.113.7')).toBe(2);
    open.release('203.0.113.7');
    expect(open.admit('203.0.113.7')).toBe(true);
    expect(open.admit('203.0.113.7')).toBe(false);
  });

  it('counts each address apart, an IPv4-mapped address as its IPv4 address', () => {
    const open = new AddressConnections(1);
    expect(open.admit('203.0.113.7')).toBe(true);
    expect(open.admit('203.0.113.8')).toBe(true);
    expect(open.admit('::ffff:203.0.113.7')).toBe(false);
  });

  it('counts the addresses of one IPv6 /64 as one client', () => {
    const open = new AddressConnections(2);
    expect(open.admit('2001:db8:1:2::a')).toBe(true);
    expect(open.admit('2001:db8:1:2:ffff::b')).toBe(true);
    expect(open.admit('2001:db8:1:2::c')).toBe(false);
    expect(open.admit('2001:db8:1:3::a')).toBe(true);
    expect(open.countOf('2001:0db8:0001:0002::1')).toBe(2);
  });

  it('keeps only the addresses with a connection open', () => {
    const open = new AddressConnections(64);
    for (let i = 0; i < 100; i++) open.admit(`10.0.0.${i}`);
    open.admit('10.0.0.1');
    expect(open.addresses).toBe(100);
    for (let i = 0; i < 100; i++) open.release(`10.0.0.${i}`);
    expect(open.addresses).toBe(1);
    open.release('10.0.0.1');
    expect(open.addresses).toBe(0);
  });
});

describe('connectionOptionsFromEnv', () => {
  it('keeps the defaults for unset or empty variables', () => {
    expect(connectionOptionsFromEnv({})).toEqual(DEFAULT_CONNECTIONS);
    expect(connectionOptionsFromEnv({ MAX_CONNECTIONS_PER_ADDRESS: ' ' })).toEqual(DEFAULT_CONNECTIONS);
    expect(DEFAULT_CONNECTIONS).toEqual({
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 5_000,
      maxConnectionsPerAddress: 64,
      maxConnections: 10_000,
    });
  });

  it('reads the timeouts in seconds and the caps as counts; 0 turns one off', () => {
    const env = {
      HEADERS_TIMEOUT_SECONDS: '10',
      REQUEST_TIMEOUT_SECONDS: '600',
      KEEP_ALIVE_TIMEOUT_SECONDS: '65',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      MAX_CONNECTIONS: '50000',
    };
    expect(connectionOptionsFromEnv(env)).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 600_000,
      keepAliveTimeoutMs: 65_000,
      maxConnectionsPerAddress: 0,
      maxConnections: 50_000,
    });
  });

  it('refuses what is not a whole number, and a head given longer than the whole request', () => {
    expect(() => connectionOptionsFromEnv({ KEEP_ALIVE_TIMEOUT_SECONDS: '1.5' })).toThrow(
      'KEEP_ALIVE_TIMEOUT_SECONDS must be a whole number, 0 or more (got 1.5)',
    );
    expect(() => connectionOptionsFromEnv({ MAX_CONNECTIONS: '-1' })).toThrow('MAX_CONNECTIONS must be a whole number');
    expect(() => connectionOptionsFromEnv({ HEADERS_TIMEOUT_SECONDS: '200' })).toThrow(
      'HEADERS_TIMEOUT_SECONDS must not be more than REQUEST_TIMEOUT_SECONDS (120)',
    );
    expect(
      connectionOptionsFromEnv({ HEADERS_TIMEOUT_SECONDS: '200', REQUEST_TIMEOUT_SECONDS: '0' }).headersTimeoutMs,
    ).toBe(200_000);
  });
});
