import { describe, expect, it } from 'vitest';
import { EventLoopWatch, operationAt, type BlockedRequest } from '../../server/http/entry/event-loop-watch.ts';

/** Keeps the thread busy for ms, as a slow pass over a request's input would. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

function watched() {
  const reports: BlockedRequest[] = [];
  const watch = new EventLoopWatch({ thresholdMs: 100, onBlocked: (report) => reports.push(report) });
  return { reports, watch };
}

const APEX = 'http://127.0.0.1/lwr/apex/v65.0/APT_ContactUsController/getContacts';

describe('EventLoopWatch', () => {
  it('reports a request during which the event loop stalled, with its operation, input size and times', async () => {
    const { reports, watch } = watched();
    const fetch = watch.wrap(async () => {
      await pause(30);
      busy(180);
      return new Response('done');
    });
    const request = new Request(APEX, {
      method: 'POST',
      body: 'x'.repeat(1234),
      headers: { 'Content-Length': '1234' },
    });
    await fetch(request);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      method: 'POST',
      target: '/lwr/apex/v65.0/APT_ContactUsController/getContacts',
      operationId: 'invokeApexImperative',
      inputBytes: 1234,
      underWay: 1,
    });
    expect(reports[0].blockedMs).toBeGreaterThanOrEqual(150);
    expect(reports[0].tookMs).toBeGreaterThanOrEqual(reports[0].blockedMs);
  });

  it('reports nothing of requests that wait without blocking, however long they take', async () => {
    const { reports, watch } = watched();
    const fetch = watch.wrap(async () => {
      for (let step = 0; step < 10; step++) {
        busy(20);
        await pause(15);
      }
      return new Response('done');
    });
    await Promise.all([fetch(new Request(APEX)), fetch(new Request(APEX))]);
    expect(reports).toEqual([]);
  });

  it('reports a request answered at once when its answer alone took over the threshold', async () => {
    const { reports, watch } = watched();
    const slow = watch.wrap(() => {
      busy(120);
      return new Response('done');
    });
    slow(new Request(`${APEX}?methodParams=%7B%7D`));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      method: 'GET',
      operationId: 'getContacts',
      inputBytes: '/lwr/apex/v65.0/APT_ContactUsController/getContacts?methodParams=%7B%7D'.length,
    });
    const quick = watch.wrap(() => new Response('done'));
    quick(new Request(APEX));
    expect(reports).toHaveLength(1);
  });

  it('tells every request under way during a stall, and how many there were', async () => {
    const { reports, watch } = watched();
    const waiting = watch.wrap(async () => {
      await pause(200);
      return new Response('done');
    });
    const blocking = watch.wrap(async () => {
      await pause(20);
      busy(150);
      return new Response('done');
    });
    await Promise.all([waiting(new Request(APEX)), blocking(new Request(APEX, { method: 'POST' }))]);
    expect(reports.map((report) => [report.method, report.underWay])).toEqual(
      expect.arrayContaining([
        ['POST', 2],
        ['GET', 2],
      ]),
    );
  });
});

describe('operationAt', () => {
  it.each([
    ['GET', '/services/data/v65.0/ui-api/records/a1C8d0000000001EAA', 'getRecord'],
    ['GET', '/services/data/v65.0/ui-api/records/batch/a1C8d0000000001EAA', 'getRecords'],
    ['PATCH', '/services/data/v65.0/ui-api/records/a1C8d0000000001EAA', 'updateRecord'],
    ['GET', '/lwr/apex/v65.0/APT_ContactUsController/getDefaultContacts', 'getDefaultContacts'],
    ['GET', '/lwr/apex/v65.0/OtherClass/someMethod', 'invokeApexCacheable'],
    ['GET', '/nowhere', undefined],
  ])('%s %s is %s', (method, path, operationId) => expect(operationAt(method, path)).toBe(operationId));
});
