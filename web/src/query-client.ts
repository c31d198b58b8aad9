import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../../client/index';

const MAX_RETRIES = 2;

/** A client error (4xx) will fail the same way again; anything else (5xx, no answer) may be transient. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
    },
  });
}
