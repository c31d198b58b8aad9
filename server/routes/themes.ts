/** The org's active theme (Metadata tag). */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { getActiveTheme } from '../platform/themes.ts';

export function themeRoutes(db: Database) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getActiveTheme, async (c) => c.json(await getActiveTheme(db, c.var.principal), 200));

  return app;
}
