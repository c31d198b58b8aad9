/** What the server answers to a request Node's parser refuses before the app (server/http/errors.ts). */
import { describe, expect, it } from 'vitest';
import { clientErrorResponse } from '../../server/http/errors.ts';

const OPTIONS = { limitBytes: 16 * 1024, requestTimeoutMs: 120_000, headers: { 'X-Content-Type-Options': 'nosniff' } };

function overflow(raw: string) {
  return clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(raw, 'latin1') }, OPTIONS);
}

function parse(response: string) {
  const [head, body] = response.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return { status: Number(statusLine.split(' ')[1]), statusLine, headers, body };
}

const LONG = 'x'.repeat(17_000);

describe('the answer to a request over the size limit', () => {
  it('is a short page with the way back for a browser going to a page whose address is too long', () => {
    // All of the request read at once, the parser stopped in the request line: its address is too long.
    const whole = clientErrorResponse(
      {
        code: 'HPE_HEADER_OVERFLOW',
        rawPacket: Buffer.from(`GET /?country=${LONG} HTTP/1.1\r\nHost: x\r\n\r\n`),
        bytesParsed: 16_400,
      },
      OPTIONS,
    );
    expect(parse(whole).status).toBe(414);
    const answer = parse(overflow(`GET /?country=${LONG}`));
    expect(answer.statusLine).toBe('HTTP/1.1 414 URI Too Long');
    expect(answer.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(answer.body).toContain('<title>Address too long</title>');
    expect(answer.body).toContain('<a href="/">Go to the Contact Us page</a>');
    expect(answer.body).toContain('16 KB');
  });

  it('is the API’s error shape on an API path: the record API’s array, the Apex transport’s object', () => {
    const record = parse(overflow(`GET /services/data/v65.0/ui-api/records/${LONG}`));
    expect(record.status).toBe(414);
    expect(record.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(JSON.parse(record.body)).toEqual([
      { errorCode: 'URI_TOO_LONG', message: "The request's address is longer than the server accepts (16 KB)" },
    ]);
    const apex = parse(overflow(`GET /lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=${LONG}`));
    expect(JSON.parse(apex.body)).toEqual({
      errorMessage: "The request's address is longer than the server accepts (16 KB)",
    });
  });

  it('is 431 when the headers are too large: a page for a browser, JSON for a client that asks for JSON', () => {
    const browser = parse(
      overflow(`GET /?country=Canada HTTP/1.1\r\nHost: x\r\nAccept: text/html,*/*\r\nCookie: a=${LONG}`),
    );
    expect(browser.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(browser.body).toContain('<title>Request too large</title>');
    const client = parse(overflow(`GET /anything HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nX-Big: ${LONG}`));
    expect(client.status).toBe(431);
    expect(JSON.parse(client.body)).toEqual([
      {
        errorCode: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
        message: "The request's address and headers are larger than the server accepts (16 KB)",
      },
    ]);
  });

  it('is Node’s own answer, with no body, when the request is unknown or not HTTP', () => {
    expect(parse(overflow(LONG))).toMatchObject({ status: 431, body: '' });
    expect(
      parse(clientErrorResponse({ code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from('BREW / HTTP/1.1') }, OPTIONS)),
    ).toMatchObject({
      status: 400,
      body: '',
    });
  });
});

describe('the answer to a request not received in time', () => {
  const timeout = (method: string, url: string, headers: Record<string, string> = {}) =>
    parse(clientErrorResponse({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, OPTIONS, { method, url, headers }));
  const MESSAGE = 'The request was not received in full within 120 seconds';

  it('is Node’s own 408, with no body, before the request’s head is whole: nothing is known of it', () => {
    const answer = parse(clientErrorResponse({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, OPTIONS));
    expect(answer).toMatchObject({ statusLine: 'HTTP/1.1 408 Request Timeout', body: '' });
    expect(answer.headers).toMatchObject({
      connection: 'close',
      'x-content-type-options': 'nosniff',
      'content-length': '0',
    });
  });

  it('is the API’s error shape when a body came too slowly: the record API’s array, the Apex transport’s object', () => {
    const record = timeout('POST', '/services/data/v65.0/ui-api/records', { 'content-type': 'application/json' });
    expect(record.statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(record.headers).toMatchObject({
      'content-type': 'application/json; charset=UTF-8',
      'cache-control': 'no-store',
      connection: 'close',
    });
    expect(JSON.parse(record.body)).toEqual([{ errorCode: 'REQUEST_TIMEOUT', message: MESSAGE }]);
    const apex = timeout('POST', '/lwr/apex/v65.0/APT_ContactUsController/getContacts?x=1');
    expect(JSON.parse(apex.body)).toEqual({ errorMessage: MESSAGE });
    // The timeout as the server has it, in whole seconds.
    const short = clientErrorResponse(
      { code: 'ERR_HTTP_REQUEST_TIMEOUT' },
      { ...OPTIONS, requestTimeoutMs: 1_000 },
      { method: 'PATCH', url: '/x', headers: {} },
    );
    expect(JSON.parse(parse(short).body)[0].message).toBe('The request was not received in full within 1 second');
  });

  it('is a short page for a browser going to a page', () => {
    const page = timeout('GET', '/?country=Canada', { accept: 'text/html,*/*' });
    expect(page.status).toBe(408);
    expect(page.headers['content-type']).toBe('text/html; charset=UTF-8');
    expect(page.body).toContain('<title>Request timed out</title>');
    expect(page.body).toContain('within 120 seconds');
  });
});
