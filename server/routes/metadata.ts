/** Metadata: object info, picklist values, layouts and layout user state of the record API. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import type { AnswerCache } from '../http/answers/answer-cache.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { getLayout, getPathLayout } from '../platform/layouts/layouts.ts';
import { getLayoutUserState, updateLayoutUserState } from '../platform/layouts/user-state.ts';
import {
  getObjectInfo,
  getObjectInfoDirectory,
  getObjectInfos,
  getPicklistValues,
  getPicklistValuesByRecordType,
} from '../platform/object-info/object-info.ts';

export function metadataRoutes(db: Database, kept: AnswerCache) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getObjectInfoDirectory, async (c) =>
    c.json(await getObjectInfoDirectory(db, c.var.principal), 200),
  );

  implement(app, routes.getObjectInfo, async (c) =>
    withETag(
      c,
      await kept.represent(c, 'getObjectInfo', () =>
        getObjectInfo(db, c.req.valid('param').objectApiName, c.var.principal),
      ),
    ),
  );

  implement(app, routes.getObjectInfos, async (c) =>
    c.json(await getObjectInfos(db, c.var.principal, c.req.valid('param').objectApiNames), 200),
  );

  implement(app, routes.getPicklistValuesByRecordType, async (c) => {
    const { objectApiName, recordTypeId } = c.req.valid('param');
    return withETag(c, await getPicklistValuesByRecordType(db, c.var.principal, objectApiName, recordTypeId));
  });

  implement(app, routes.getPicklistValues, async (c) => {
    const { objectApiName, recordTypeId, fieldApiName } = c.req.valid('param');
    return withETag(c, await getPicklistValues(db, objectApiName, recordTypeId, fieldApiName, c.var.principal));
  });

  implement(app, routes.getLayout, async (c) => {
    const { layoutType, mode, recordTypeId } = c.req.valid('query');
    const layout = await kept.represent(c, 'getLayout', () =>
      getLayout(db, c.var.principal, c.req.valid('param').objectApiName, { layoutType, mode, recordTypeId }),
    );
    return withETag(c, layout);
  });

  implement(app, routes.getPathLayout, async (c) => {
    const { layoutOverride, mode, recordTypeId } = c.req.valid('query');
    return withETag(
      c,
      await getPathLayout(db, c.var.principal, c.req.valid('param').objectApiName, {
        layoutOverride,
        mode,
        recordTypeId,
      }),
    );
  });

  implement(app, routes.getLayoutUserState, async (c) => {
    const { layoutType, mode, recordTypeId } = c.req.valid('query');
    return c.json(
      await getLayoutUserState(db, c.var.principal, c.req.valid('param').objectApiName, {
        layoutType,
        mode,
        recordTypeId,
      }),
      200,
    );
  });

  implement(app, routes.updateLayoutUserState, async (c) => {
    const { layoutType, mode, recordTypeId } = c.req.valid('query');
    const state = await updateLayoutUserState(
      db,
      c.var.principal,
      c.req.valid('param').objectApiName,
      { layoutType, mode, recordTypeId },
      c.req.valid('json'),
    );
    return c.json(state, 200);
  });

  return app;
}
