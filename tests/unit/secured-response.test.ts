/**
 * SecuredResponse: Node's response that writes default headers (the security headers) with the answer's own,
 * unless the answer sets its own of the same name, in whatever case and however it sets it (the headers given
 * to writeHead, as an object or as Node's flat list, or setHeader before). Over a real server and socket.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecuredResponse } from '../../server/http/connections/secured-response.ts';
import { rawGet } from '../support/raw-http.ts';

const DEFAULTS = { 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "default-src 'none'" };

/** How each path answers, given the response. */
const ANSWERS: Record<string, (response: ServerResponse) => void> = {
  '/object': (response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('object'),
  '/own-policy': (response) => response.writeHead(200, { 'content-security-policy': "default-src 'self'" }).end('own'),
  '/own-policy-mixed-case': (response) =>
    response.writeHead(200, { 'CONTENT-Security-Policy': "default-src 'self'" }).end('own'),
  '/reason': (response) => response.writeHead(201, 'Made', { 'X-Frame-Options': 'SAMEORIGIN' }).end('made'),
  '/list': (response) =>
    response
      .writeHead(200, ['Content-Type', 'text/plain', 'content-security-policy', "default-src 'self'"])
      .end('list'),
  '/set-before': (response) => {
    response.setHeader('X-Frame-Options', 'SAMEORIGIN');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('set');
  },
  '/implicit': (response) => {
    response.setHeader('Content-Security-Policy', "default-src 'self'");
    response.end('implicit');
  },
  '/none': (response) => {
    (response as SecuredResponse).defaultHeaders = undefined;
    response.writeHead(200, { 'content-type': 'text/plain' }).end('none');
  },
};

describe('SecuredResponse', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer({ ServerResponse: SecuredResponse }, (request, response) => {
      (response as SecuredResponse).defaultHeaders = DEFAULTS;
      ANSWERS[request.url!](response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const headersOf = async (path: string) => (await rawGet(base + path)).headers;

  it('adds the defaults to an answer that sets none of them', async () => {
    expect(await headersOf('/object')).toMatchObject({
      'content-type': 'text/plain',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'",
    });
  });

  it("keeps the answer's own header of a default's name, in any case, and adds the other defaults", async () => {
    for (const path of ['/own-policy', '/own-policy-mixed-case', '/list']) {
      const headers = await headersOf(path);
      expect(headers['content-security-policy'], path).toBe("default-src 'self'");
      expect(headers['x-frame-options'], path).toBe('DENY');
    }
  });

  it('takes a status message, headers set before, and headers written implicitly', async () => {
    const made = await rawGet(`${base}/reason`);
    expect(made.status).toBe(201);
    expect(made.headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': "default-src 'none'",
    });
    expect(await headersOf('/set-before')).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': "default-src 'none'",
    });
    expect(await headersOf('/implicit')).toMatchObject({
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'self'",
    });
  });

  it('adds nothing without defaults', async () => {
    const headers = await headersOf('/none');
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['content-security-policy']).toBeUndefined();
  });
});
