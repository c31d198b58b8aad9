/** Records: get one or a batch, create, update, delete, and batch writes. */
import { enforceDuplicateRules } from '../platform/duplicates/match.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import type { AnswerCache } from '../http/answers/answer-cache.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { executeBatch } from '../platform/records/batch.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';
import { getChildRecords } from '../platform/records/child-records.ts';
import { getRecord, getRecords, type LayoutTypeName, type ModeName } from '../platform/records/read.ts';
import { updateRecord } from '../platform/records/update.ts';
import { createRecord, deleteRecord } from '../platform/records/write.ts';

export function recordRoutes(db: Database, kept: AnswerCache, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const clock = options.clock;

  implement(app, routes.getRecord, async (c) => {
    const query = c.req.valid('query');
    const read = (reads?: Set<string>) =>
      getRecord(db, c.var.principal, c.req.valid('param').recordId, {
        fields: splitFieldList(query.fields),
        optionalFields: splitFieldList(query.optionalFields),
        layoutTypes: splitFieldList(query.layoutTypes) as LayoutTypeName[],
        modes: splitFieldList(query.modes) as ModeName[],
        childRelationships: splitFieldList(query.childRelationships),
        pageSize: query.pageSize,
        updateMru: query.updateMru,
        reads,
      });
    // Cached for the replay stage unless it writes (the most-recently-used list) or has pages of children (which any new
    // child record changes).
    const keepable = !query.updateMru && !query.childRelationships;
    // Serialized once: the JSON its eTag hashed (see withEtag).
    return withETag(c, keepable ? await kept.representRecords(c, 'getRecord', read) : await read());
  });

  implement(app, routes.getChildRecords, async (c) => {
    const { recordId, relationshipName } = c.req.valid('param');
    const query = c.req.valid('query');
    const page = await getChildRecords(db, c.var.principal, recordId, relationshipName, {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
      pageSize: query.pageSize,
      pageToken: query.pageToken,
      page: query.page,
    });
    return c.json(page, 200);
  });

  implement(app, routes.getRecords, async (c) => {
    const query = c.req.valid('query');
    const batch = await getRecords(db, c.var.principal, c.req.valid('param').recordIds.split(','), {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
    });
    return c.json(batch, 200);
  });

  implement(app, routes.createRecord, async (c) => {
    const record = await createRecord(db, c.var.principal, c.req.valid('json'), {
      clock,
      beforeWrite: enforceDuplicateRules,
      includeFieldsInBody: c.req.valid('query').includeFieldsInBody,
    });
    return c.json(record, 201);
  });

  implement(app, routes.updateRecord, async (c) => {
    const since = c.req.valid('header')['if-unmodified-since'];
    const record = await updateRecord(db, c.var.principal, c.req.valid('param').recordId, c.req.valid('json'), {
      clock,
      beforeWrite: enforceDuplicateRules,
      includeFieldsInBody: c.req.valid('query').includeFieldsInBody,
      ifUnmodifiedSince: since ? new Date(since) : undefined,
    });
    return c.json(record, 200);
  });

  implement(app, routes.deleteRecord, async (c) => {
    await deleteRecord(db, c.var.principal, c.req.valid('param').recordId, { clock });
    return c.body(null, 204);
  });

  implement(app, routes.executeBatchRecordOperations, async (c) => {
    const results = await executeBatch(db, c.var.principal, c.req.valid('json'), {
      clock,
      beforeWrite: enforceDuplicateRules,
    });
    return c.json(results, 200);
  });

  return app;
}
