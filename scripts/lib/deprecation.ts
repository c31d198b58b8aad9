/** The contract's deprecations, as the generator reads them (scripts/generate.ts). */

/** A deprecation: since when (x-deprecated-since), and the day it goes (x-sunset), dates as YYYY-MM-DD. */
export interface Deprecation {
  since: string;
  sunset?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The deprecation of an operation or parameter marked `deprecated: true`: its x-deprecated-since is required, its
 * x-sunset optional, and neither may be a date the calendar lacks; the sunset comes after.
 */
export function deprecationOf(
  node: { deprecated?: boolean; [extension: `x-${string}`]: unknown },
  what: string,
): Deprecation | undefined {
  if (node.deprecated !== true) return undefined;
  const since = node['x-deprecated-since'];
  const sunset = node['x-sunset'];
  const valid = (date: unknown) =>
    typeof date === 'string' && DATE.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);
  if (!valid(since)) throw new Error(`${what} is deprecated: it needs x-deprecated-since, a date YYYY-MM-DD`);
  if (sunset !== undefined && (!valid(sunset) || (sunset as string) <= (since as string)))
    throw new Error(`${what}: x-sunset must be a date YYYY-MM-DD after x-deprecated-since`);
  return sunset === undefined ? { since: since as string } : { since: since as string, sunset: sunset as string };
}
