/** Search: search results over one or several objects, search filters and their options, lookups. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { searchFilterMetadata, searchFilterOptions } from '../platform/search/filters.ts';
import { keywordSearch, searchResults } from '../platform/search/keyword.ts';
import { lookupMetadata, lookupRecords } from '../platform/search/lookup.ts';

export function searchRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const now = () => new Date(options.clock?.now() ?? Date.now());

  implement(app, routes.getLookupRecords, async (c) => {
    const { objectApiName, fieldApiName } = c.req.valid('param');
    const body = c.req.valid('json') ?? {};
    return c.json(
      await lookupRecords(
        db,
        c.var.principal,
        objectApiName,
        fieldApiName,
        { ...c.req.valid('query'), ...body },
        now(),
      ),
      200,
    );
  });

  // The GET form of the same: the filter's values from the query alone.
  implement(app, routes.getLookupRecordsByQuery, async (c) => {
    const { objectApiName, fieldApiName } = c.req.valid('param');
    return c.json(
      await lookupRecords(db, c.var.principal, objectApiName, fieldApiName, c.req.valid('query'), now()),
      200,
    );
  });

  // The GET form with the target in the path: that object's page alone.
  implement(app, routes.getLookupRecordsForTarget, async (c) => {
    const { objectApiName, fieldApiName, targetApiName } = c.req.valid('param');
    const values = await lookupRecords(
      db,
      c.var.principal,
      objectApiName,
      fieldApiName,
      { ...c.req.valid('query'), targetApiName },
      now(),
    );
    return c.json(Object.values(values.lookupResults)[0], 200);
  });

  implement(app, routes.getKeywordSearchResults, async (c) => {
    const { q, objectApiName } = c.req.valid('query');
    return c.json(await keywordSearch(db, c.var.principal, q, objectApiName, c.req.valid('json') ?? {}, now()), 200);
  });

  implement(app, routes.getSearchResults, async (c) => {
    return c.json(
      await searchResults(db, c.var.principal, c.req.valid('query').q, c.req.valid('json') ?? {}, now()),
      200,
    );
  });

  implement(app, routes.getSearchFilterMetadata, async (c) => {
    const { configurationName } = c.req.valid('query');
    return c.json(
      await searchFilterMetadata(db, c.var.principal, c.req.valid('param').objectApiName, { configurationName }),
      200,
    );
  });

  implement(app, routes.getSearchFilterOptions, async (c) => {
    const { objectApiName, filterApiName } = c.req.valid('param');
    return c.json(
      await searchFilterOptions(db, c.var.principal, objectApiName, filterApiName, c.req.valid('query').q),
      200,
    );
  });

  implement(app, routes.getLookupMetadata, async (c) => {
    const { objectApiName, fieldApiName } = c.req.valid('param');
    return c.json(await lookupMetadata(db, c.var.principal, objectApiName, fieldApiName), 200);
  });

  return app;
}
