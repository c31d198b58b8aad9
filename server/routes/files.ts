/** Files: uploading a new file (a ContentDocument with its first version) or a new version of one. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { createContentDocumentAndVersion, createContentVersion } from '../platform/content-documents.ts';
import { invalidConfigHook } from './record-ui.ts';

export function fileRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const clock = options.clock;

  implement(
    app,
    routes.createContentDocumentAndVersion,
    async (c) =>
      c.json(await createContentDocumentAndVersion(db, c.var.principal, c.req.valid('json'), { clock }), 201),
    { hook: invalidConfigHook('createContentDocumentAndVersion') },
  );

  implement(
    app,
    routes.createContentVersion,
    async (c) =>
      c.json(
        await createContentVersion(db, c.var.principal, c.req.valid('param').contentDocumentId, c.req.valid('json'), {
          clock,
        }),
        201,
      ),
    { hook: invalidConfigHook('createContentVersion') },
  );

  return app;
}
