/** Records: get one or a batch, create, update, delete, and batch writes. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { operation } from '../http/operation.ts';
import { principalOf } from '../http/principal.ts';
import { executeBatch } from '../platform/records/batch.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';
import { getChildRecords, getRecord, getRecords, type LayoutTypeName, type ModeName } from '../platform/records/read.ts';
import { createRecord, deleteRecord, updateRecord } from '../platform/records/write.ts';
import { RecordWriteError } from '../platform/records/write-rules.ts';

/** A failed record write answers with the record-error output; every other error goes to the app's handler. */
async function writing(c: Context, write: () => Promise<Response>): Promise<never> {
  try {
    return (await write()) as never;
  } catch (error) {
    if (error instanceof RecordWriteError) return c.json(error.body, 400) as never;
    throw error;
  }
}

export function recordRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  const clock = options.clock;

  app.openapi(operation(routes.getRecord), async (c) => {
    const query = c.req.valid('query');
    const record = await getRecord(db, principalOf(c), c.req.valid('param').recordId, {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
      layoutTypes: splitFieldList(query.layoutTypes) as LayoutTypeName[],
      modes: splitFieldList(query.modes) as ModeName[],
      childRelationships: splitFieldList(query.childRelationships),
      pageSize: query.pageSize,
    });
    c.header('ETag', `"${record.eTag}"`);
    return c.json(record as never, 200);
  });

  app.openapi(operation(routes.getChildRecords), async (c) => {
    const { recordId, relationshipName } = c.req.valid('param');
    const query = c.req.valid('query');
    const page = await getChildRecords(db, principalOf(c), recordId, relationshipName, {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
      pageSize: query.pageSize,
      pageToken: query.pageToken,
      page: query.page,
    });
    return c.json(page as never, 200);
  });

  app.openapi(operation(routes.getRecords), async (c) => {
    const query = c.req.valid('query');
    const batch = await getRecords(db, principalOf(c), c.req.valid('param').recordIds.split(','), {
      fields: splitFieldList(query.fields),
      optionalFields: splitFieldList(query.optionalFields),
    });
    return c.json(batch as never, 200);
  });

  app.openapi(operation(routes.createRecord), (c) =>
    writing(c, async () => {
      const record = await createRecord(db, principalOf(c), c.req.valid('json'), { clock, includeFieldsInBody: c.req.valid('query').includeFieldsInBody });
      return c.json(record as never, 201);
    }),
  );

  app.openapi(operation(routes.updateRecord), (c) =>
    writing(c, async () => {
      const since = c.req.valid('header')['if-unmodified-since'];
      const record = await updateRecord(db, principalOf(c), c.req.valid('param').recordId, c.req.valid('json'), {
        clock,
        includeFieldsInBody: c.req.valid('query').includeFieldsInBody,
        ifUnmodifiedSince: since ? new Date(since) : undefined,
      });
      return c.json(record as never, 200);
    }),
  );

  app.openapi(operation(routes.deleteRecord), (c) =>
    writing(c, async () => {
      await deleteRecord(db, principalOf(c), c.req.valid('param').recordId, { clock });
      return c.body(null, 204);
    }),
  );

  app.openapi(operation(routes.executeBatchRecordOperations), async (c) => {
    const results = await executeBatch(db, principalOf(c), c.req.valid('json'), { clock });
    return c.json(results as never, 200);
  });

  return app;
}
