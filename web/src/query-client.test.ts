import { describe, expect, it } from 'vitest';
import { SERVER_QUERY_DEFAULTS } from '../ssr/guest-data';
import { createQueryClient } from './query-client';

describe('query defaults', () => {
  it('are frozen, in the browser and on the server, and still apply to every query', () => {
    const browser = createQueryClient();
    expect(Object.isFrozen(browser.getDefaultOptions().queries)).toBe(true);
    expect(Object.isFrozen(SERVER_QUERY_DEFAULTS.queries)).toBe(true);
    const options = browser.defaultQueryOptions({ queryKey: ['getSession', {}] });
    expect(options.refetchOnWindowFocus).toBe(false);
    expect(typeof options.retry).toBe('function');
  });
});
