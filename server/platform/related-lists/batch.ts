/**
 * Batches as the platform answers them: one result per item, in the order asked, each with the status it
 * would have had alone; a failed item (a related list that does not exist or may not be seen, a bad field)
 * is a result with a list of {errorCode, message}, as in records/batch, not a failure of the whole call.
 */
import { PlatformError } from '../core/errors.ts';
import { illegalValue } from '../query/errors.ts';

/** Most related lists (or preferences ids) one batch names. */
export const MAX_BATCH_RELATED_LISTS = 20;

type BatchError = { errorCode: string; message: string };

export async function batchItem<T>(work: () => Promise<T>): Promise<{ statusCode: number; result: T | BatchError[] }> {
  try {
    return { statusCode: 200, result: await work() };
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    return { statusCode: error.status, result: [{ errorCode: error.errorCode, message: error.message }] };
  }
}

/** Related list ids of a path (comma-separated): at least one, at most MAX_BATCH_RELATED_LISTS. */
export function relatedListNames(text: string, parameter = 'relatedListNames'): string[] {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw illegalValue(parameter, 'name at least one related list');
  if (names.length > MAX_BATCH_RELATED_LISTS)
    throw illegalValue(parameter, `at most ${MAX_BATCH_RELATED_LISTS} related lists, not ${names.length}`);
  return names;
}
