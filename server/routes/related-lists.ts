/** Related lists: their metadata, counts and records of a parent record, and the caller's preferences for them. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';
import {
  getRelatedListInfo,
  getRelatedListInfoBatch,
  getRelatedListsInfo,
  updateRelatedListInfo,
} from '../platform/related-lists/info.ts';
import {
  getRelatedListPreferences,
  getRelatedListPreferencesBatch,
  updateRelatedListPreferences,
} from '../platform/related-lists/preferences.ts';
import {
  getRelatedListCount,
  getRelatedListRecords,
  getRelatedListRecordsBatch,
  getRelatedListsCount,
} from '../platform/related-lists/records.ts';

export function relatedListRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const now = () => new Date(options.clock?.now() ?? Date.now());

  implement(app, routes.getRelatedListsCount, async (c) => {
    const { parentRecordId, relatedListNames } = c.req.valid('param');
    const body = await getRelatedListsCount(
      db,
      c.var.principal,
      parentRecordId,
      relatedListNames,
      c.req.valid('query').maxCount,
      now(),
    );
    // A batch has no eTag of its own: the ETag header is a hash of the body (http/answers/cache-headers.ts).
    return c.json(body, 200);
  });

  implement(app, routes.getRelatedListCount, async (c) => {
    const { parentRecordId, relatedListId } = c.req.valid('param');
    return withETag(
      c,
      await getRelatedListCount(
        db,
        c.var.principal,
        parentRecordId,
        relatedListId,
        c.req.valid('query').maxCount,
        now(),
      ),
    );
  });

  implement(app, routes.getRelatedListInfoBatch, async (c) => {
    const { parentObjectApiName, relatedListNames } = c.req.valid('param');
    const body = await getRelatedListInfoBatch(
      db,
      c.var.principal,
      parentObjectApiName,
      relatedListNames,
      c.req.valid('query').recordTypeId,
    );
    // A batch has no eTag of its own: the ETag header is a hash of the body (http/answers/cache-headers.ts).
    return c.json(body, 200);
  });

  implement(app, routes.getRelatedListsInfo, async (c) =>
    withETag(
      c,
      await getRelatedListsInfo(
        db,
        c.var.principal,
        c.req.valid('param').parentObjectApiName,
        c.req.valid('query').recordTypeId,
      ),
    ),
  );

  implement(app, routes.getRelatedListInfo, async (c) => {
    const { parentObjectApiName, relatedListId } = c.req.valid('param');
    const query = c.req.valid('query');
    const info = await getRelatedListInfo(db, c.var.principal, parentObjectApiName, relatedListId, {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
      recordTypeId: query.recordTypeId,
      restrictColumnsToLayout: query.restrictColumnsToLayout,
    });
    return withETag(c, info);
  });

  implement(app, routes.updateRelatedListInfo, async (c) => {
    const { parentObjectApiName, relatedListId } = c.req.valid('param');
    const info = await updateRelatedListInfo(
      db,
      c.var.principal,
      parentObjectApiName,
      relatedListId,
      c.req.valid('query').recordTypeId,
      c.req.valid('json'),
    );
    return c.json(info, 200);
  });

  implement(app, routes.getRelatedListPreferencesBatch, async (c) =>
    c.json(await getRelatedListPreferencesBatch(db, c.var.principal, c.req.valid('param').preferencesIds), 200),
  );

  implement(app, routes.getRelatedListPreferences, async (c) => {
    return c.json(await getRelatedListPreferences(db, c.var.principal, c.req.valid('param').preferencesId), 200);
  });

  implement(app, routes.updateRelatedListPreferences, async (c) =>
    c.json(
      await updateRelatedListPreferences(db, c.var.principal, c.req.valid('param').preferencesId, c.req.valid('json')),
      200,
    ),
  );

  // Before related-list-records/{parentRecordId}/{relatedListId}, which would take `batch` for a record id.
  implement(app, routes.getRelatedListRecordsBatch, async (c) =>
    c.json(
      await getRelatedListRecordsBatch(
        db,
        c.var.principal,
        c.req.valid('param').parentRecordId,
        c.req.valid('json'),
        now(),
      ),
      200,
    ),
  );

  implement(app, routes.getRelatedListRecords, async (c) => {
    const { parentRecordId, relatedListId } = c.req.valid('param');
    // The body is optional: absent, the first page in the related list's own order.
    const body = c.req.valid('json') ?? {};
    return c.json(await getRelatedListRecords(db, c.var.principal, parentRecordId, relatedListId, body, now()), 200);
  });

  // The GET form, which the page URLs of an answer take: lists are comma-separated in the query.
  implement(app, routes.getRelatedListRecordsByQuery, async (c) => {
    const { parentRecordId, relatedListId } = c.req.valid('param');
    const query = c.req.valid('query');
    const request = {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
      pageSize: query.pageSize,
      pageToken: query.pageToken,
      sortBy: query.sortBy === undefined ? undefined : splitFieldList(query.sortBy),
      where: query.where,
    };
    return c.json(await getRelatedListRecords(db, c.var.principal, parentRecordId, relatedListId, request, now()), 200);
  });

  return app;
}
