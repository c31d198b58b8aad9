/** The replay stage (answers given before routing): what a test of them expects of every such answer. */
import { expect } from 'vitest';
import { rawGet, type RawAnswer } from './raw-http.ts';

/** An If-None-Match no answer has: a request that sends it goes through the router past the replay stage, and gets the whole answer. */
export const WHOLE_WAY = { 'If-None-Match': '"not-an-etag-of-any-answer"' };

/** The headers of an answer, less the ones Node writes itself for each response (to compare two answers). */
export function answerHeaders(answer: RawAnswer): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = answer.headers;
  return rest;
}

/**
 * GETs url `asked` times (so that a cache notes its answer), then once through the router and once more: expects the
 * replay stage to answer the last one only (answered() counts its answers), with the router's status 200,
 * headers and body. Returns the replayed answer.
 */
export async function expectFrontAsWholeWay(
  url: string,
  headers: Record<string, string>,
  answered: () => number,
  asked: number,
): Promise<RawAnswer> {
  for (let i = 0; i < asked; i++) await rawGet(url, headers);
  const before = answered();
  const whole = await rawGet(url, { ...headers, ...WHOLE_WAY });
  expect(answered()).toBe(before);
  const front = await rawGet(url, headers);
  expect(answered(), url).toBe(before + 1);
  expect(front.status).toBe(200);
  expect(whole.status).toBe(200);
  expect(answerHeaders(front)).toEqual(answerHeaders(whole));
  expect(front.body.equals(whole.body)).toBe(true);
  return front;
}
