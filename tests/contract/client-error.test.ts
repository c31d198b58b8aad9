/**
 * Requests Node's parser refuses before the app sees them (headers over the size limit) are answered in the
 * API's error shape, as the contract declares (431), on a fresh connection and on a kept-alive one that has
 * answered before, and a client still sending a large body behind such headers reads the answer whole.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidResponse } from '../support/contract.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const OBJECT_INFO = '/services/data/v65.0/ui-api/object-info/Contact';
const OVERSIZE = 'a'.repeat(20_000);

/** Writes the requests one after another on one connection, each once the previous answer has come; returns all it read. */
function onOneConnection(port: number, requests: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let next = 0;
    const sendNext = () => socket.write(requests[next++]);
    socket.on('connect', sendNext);
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      // The first answer is a kept-alive 200 with a length: once it is whole, the next request goes.
      if (next < requests.length && /\r\n\r\n/.test(received)) {
        const length = Number(/content-length: (\d+)/i.exec(received)?.[1] ?? NaN);
        const head = received.indexOf('\r\n\r\n') + 4;
        if (received.length - head >= length) sendNext();
      }
    });
    socket.on('end', () => done(received));
    socket.on('error', fail);
    socket.setTimeout(10_000, () => fail(new Error(`no answer in time; read so far:\n${received.slice(0, 500)}`)));
  });
}

const answerAfter = (raw: string, marker: string) => {
  const at = raw.lastIndexOf('HTTP/1.1 ');
  expect(at, raw.slice(0, 300)).toBeGreaterThan(raw.indexOf(marker) - 1);
  const [head, body] = raw.slice(at).split('\r\n\r\n', 2) as [string, string];
  return { status: Number(head.split(' ')[1]), head, body };
};

describe('requests over the header size limit', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startTestServer({ demoContacts: 5 });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server?.close());

  it('are answered 431 in the error shape through fetch, a large body behind them included', async () => {
    for (const body of [undefined, 'x'.repeat(2_000_000)]) {
      const response = await fetch(`${server.baseUrl}${OBJECT_INFO}`, {
        method: body ? 'POST' : 'GET',
        body,
        headers: { 'X-Oversize': OVERSIZE },
      });
      expect(response.status).toBe(431);
      expect(response.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      const errors = await response.json();
      expectValidResponse('getObjectInfo', 431, errors);
      expect(errors[0].errorCode).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
    }
  });

  it('are answered on a kept-alive connection that has answered a request before', async () => {
    const raw = await onOneConnection(port, [
      `GET ${OBJECT_INFO} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`,
      `GET ${OBJECT_INFO} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Oversize: ${OVERSIZE}\r\n\r\n`,
    ]);
    expect(raw.slice(0, 13)).toBe('HTTP/1.1 404 ');
    const second = answerAfter(raw, 'HTTP/1.1 404 ');
    expect(second.status).toBe(431);
    const errors = JSON.parse(second.body);
    expectValidResponse('getObjectInfo', 431, errors);
    expect(errors[0].errorCode).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
  });
});
