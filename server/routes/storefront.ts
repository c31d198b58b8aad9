/** Storefront: the product's server methods on the Apex transport. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/connection.ts';
import { routes } from '../generated/routes.ts';
import { validationHook } from '../http/errors.ts';
import { operation } from '../http/operation.ts';
import { invokeApex, parseMethodParams } from '../storefront/apex.ts';

const CONTROLLER = 'APT_ContactUsController';

export function storefrontRoutes(db: Database) {
  const app = new OpenAPIHono({ defaultHook: validationHook });

  app.openapi(operation(routes.getDefaultContacts), async (c) => {
    const { value } = await invokeApex(db, CONTROLLER, 'getDefaultContacts', {}, 'GET');
    return c.json(value as never, 200);
  });

  app.openapi(operation(routes.getDependentStatePicklistsValues), async (c) => {
    const { value } = await invokeApex(db, CONTROLLER, 'getDependentStatePicklistsValues', {}, 'GET');
    return c.json(value as never, 200);
  });

  app.openapi(operation(routes.getContacts), async (c) => {
    const params = parseMethodParams(c.req.valid('query').methodParams);
    const { value } = await invokeApex(db, CONTROLLER, 'getContacts', params, 'GET');
    return c.json(value as never, 200);
  });

  app.openapi(operation(routes.invokeApexCacheable), async (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    const { value } = await invokeApex(db, apexClass, apexMethod, parseMethodParams(c.req.valid('query').methodParams), 'GET');
    return c.json(value as never, 200);
  });

  app.openapi(operation(routes.invokeApexImperative), async (c) => {
    const { apexClass, apexMethod } = c.req.valid('param');
    // An absent body means no arguments; a present one was checked against ApexMethodParams.
    const hasBody = Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined;
    const params = hasBody ? c.req.valid('json') : {};
    const { value } = await invokeApex(db, apexClass, apexMethod, params, 'POST');
    return c.json(value as never, 200);
  });

  return app;
}
