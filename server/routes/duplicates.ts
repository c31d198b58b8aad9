/** Duplicate rules (Metadata tag): an object's duplicate configuration, and the duplicates of a record about to be saved. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { getDuplicateConfiguration, getDuplicates } from '../platform/duplicates/operations.ts';

export function duplicateRoutes(db: Database) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getDuplicateConfiguration, async (c) =>
    withETag(
      c,
      await getDuplicateConfiguration(
        db,
        c.var.principal,
        c.req.valid('param').objectApiName,
        c.req.valid('query').recordTypeId,
      ),
    ),
  );

  implement(app, routes.getDuplicates, async (c) =>
    c.json(await getDuplicates(db, c.var.principal, c.req.valid('json')), 200),
  );

  return app;
}
