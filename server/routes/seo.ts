/** SEO: the search-engine properties of the site's pages. */
import type { AppEnv } from '../http/sessions/principal.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import { getRecordSeoProperties } from '../seo/properties.ts';

export function seoRoutes(db: Database) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  implement(app, routes.getRecordSeoProperties, async (c) => {
    const { communityId, recordId } = c.req.valid('param');
    const properties = await getRecordSeoProperties(db, communityId, recordId, c.req.valid('query').fields);
    return c.json(properties, 200);
  });

  return app;
}
