/**
 * The mixed load of npm run bench:api taken apart (scripts/lib/bench-api-mixed.ts): the variants beside the mix as
 * sent change only its writes.
 */
import { describe, expect, it } from 'vitest';
import { mixedVariants } from '../../scripts/lib/bench-api-mixed.ts';
import { ACCOUNTS, mixedRequests } from '../../scripts/lib/bench-api-shared.ts';
import { makeId } from '../../server/platform/core/ids.ts';

const requests = mixedRequests('sid=cookie', 'csrf-token');
const [asSent, elsewhere, withoutWrites] = mixedVariants(requests);
const writes = (of: typeof requests) => of.filter((one) => one.method !== 'GET');
const reads = (of: typeof requests) => of.filter((one) => one.method === 'GET');

describe('the mixed load taken apart', () => {
  it('measures the mix as the full run sends it', () => {
    expect(asSent.requests).toEqual(requests);
    expect(writes(requests).length).toBeGreaterThan(0);
  });

  it('sends the writes to a record no request of the mix reads, with the same weight, headers and body', () => {
    const unread = makeId('003', 1);
    expect(reads(elsewhere.requests)).toEqual(reads(requests));
    expect(writes(elsewhere.requests)).toEqual(
      writes(requests).map((one) => ({ ...one, path: one.path.replace(ACCOUNTS[0], unread) })),
    );
    expect(writes(requests).every((one) => one.path.includes(ACCOUNTS[0]))).toBe(true);
    expect(requests.some((one) => one.path.includes(unread))).toBe(false);
  });

  it('leaves the writes out and keeps every read', () => {
    expect(withoutWrites.requests).toEqual(reads(requests));
  });
});
