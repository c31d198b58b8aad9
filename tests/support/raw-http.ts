/** A GET as sent on the wire and its answer as received: node:http neither adds nor decodes anything. */
import { get, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { connection: 'close', ...headers }, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The headers of an answer, less the ones Node writes itself for each response (to compare two answers). */
export function answerHeaders(answer: RawAnswer): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = answer.headers;
  return rest;
}

/** An If-None-Match no answer has: a request that sends it goes the whole way past the app's fronts, and gets the whole answer. */
export const WHOLE_WAY = { 'If-None-Match': '"not-an-etag-of-any-answer"' };

/** Resolves once condition holds, checked every 20 ms; throws after timeoutMs. */
export async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('The condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
