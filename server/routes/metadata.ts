/** Metadata: object info and picklist values of the record API. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { operation } from '../http/operation.ts';
import { getObjectInfo, getPicklistValues } from '../platform/object-info.ts';

export function metadataRoutes(db: Database) {
  const app = new OpenAPIHono({ defaultHook: validationHook });

  app.openapi(operation(routes.getObjectInfo), async (c) => {
    const info = await getObjectInfo(db, c.req.valid('param').objectApiName);
    c.header('ETag', `"${info.eTag}"`);
    return c.json(info as never, 200);
  });

  app.openapi(operation(routes.getPicklistValues), async (c) => {
    const { objectApiName, recordTypeId, fieldApiName } = c.req.valid('param');
    const values = await getPicklistValues(db, objectApiName, recordTypeId, fieldApiName);
    c.header('ETag', `"${values.eTag}"`);
    return c.json(values as never, 200);
  });

  return app;
}
