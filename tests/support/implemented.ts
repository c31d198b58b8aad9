/**
 * The operationIds the server implements (createApp(db).implementedOperations), known when tests are
 * collected: building the app registers its routes without touching the database.
 */
import { createApp } from '../../server/app.ts';
import type { Database } from '../../server/db/connection.ts';

const noDatabase = new Proxy({} as Database, {
  get: (_target, property) => {
    if (property === 'then') return undefined;
    return () => {
      throw new Error(`building the app must not use the database (called ${String(property)})`);
    };
  },
});

let cached: ReadonlySet<string> | undefined;

export function implementedOperationIds(): ReadonlySet<string> {
  cached ??= new Set(createApp(noDatabase).implementedOperations);
  return cached;
}
