import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { RememberingRouter } from '../../server/http/entry/remembering-router.ts';

/** A TrieRouter that counts its matches. */
function counted() {
  const inner = new TrieRouter<string>();
  let matches = 0;
  const match = inner.match.bind(inner);
  inner.match = (method, path) => {
    matches++;
    return match(method, path);
  };
  return { inner, matches: () => matches };
}

const params = (result: ReturnType<RememberingRouter<string>['match']>) =>
  result[0].map(([handler, found]) => [handler, { ...found }]);

describe('RememberingRouter', () => {
  it('matches as the router it wraps, asking it once per method and path', () => {
    const { inner, matches } = counted();
    const router = new RememberingRouter(inner);
    router.add('GET', '/records/:id', 'getRecord');
    router.add('GET', '/records/static', 'static');
    router.add('POST', '/records/:id', 'updateRecord');
    const reference = new TrieRouter<string>();
    reference.add('GET', '/records/:id', 'getRecord');
    reference.add('GET', '/records/static', 'static');
    reference.add('POST', '/records/:id', 'updateRecord');
    for (const [method, path] of [
      ['GET', '/records/001A'],
      ['GET', '/records/001A'],
      ['GET', '/records/001B'],
      ['POST', '/records/001A'],
      ['GET', '/records/static'],
      ['GET', '/nothing'],
    ]) {
      expect(params(router.match(method, path))).toEqual(params(reference.match(method, path)));
    }
    expect(params(router.match('GET', '/records/001B'))).toEqual([['getRecord', { id: '001B' }]]);
    expect(matches()).toBe(5);
    expect(router.size).toBe(5);
  });

  it('forgets its matches when a route is added', () => {
    const router = new RememberingRouter(new TrieRouter<string>());
    router.add('GET', '/a/:id', 'param');
    expect(params(router.match('GET', '/a/static'))).toEqual([['param', { id: 'static' }]]);
    router.add('GET', '/a/static', 'static');
    expect(router.size).toBe(0);
    expect(params(router.match('GET', '/a/static')).map(([handler]) => handler)).toContain('static');
  });

  it('keeps at most its limit, and no long path', () => {
    const { inner, matches } = counted();
    const router = new RememberingRouter(inner, 3);
    router.add('GET', '/r/:id', 'getRecord');
    for (const id of ['1', '2', '3']) router.match('GET', `/r/${id}`);
    expect(router.size).toBe(3);
    router.match('GET', '/r/4');
    expect(router.size).toBe(1);
    const long = `/r/${'x'.repeat(300)}`;
    expect(params(router.match('GET', long))).toEqual([['getRecord', { id: 'x'.repeat(300) }]]);
    router.match('GET', long);
    expect(router.size).toBe(1);
    expect(matches()).toBe(6);
  });
});
