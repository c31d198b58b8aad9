/** Lists: list views, their records, their metadata, the MRU list and the caller's list preferences. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import { getListInfo, getListInfoById, getListInfos, getListUi, readListRecords } from '../platform/lists/read.ts';
import { MRU_LIST_VIEW } from '../platform/lists/definitions.ts';
import { getListObjectInfo } from '../platform/lists/object-info.ts';
import { getListPreferences, updateListPreferences } from '../platform/lists/preferences.ts';
import { listInfoSummaries, listViewSummaries } from '../platform/lists/summaries.ts';
import { createListInfo, deleteListInfo, updateListInfo } from '../platform/lists/write.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';

/** The query parameters of a page of records, as the record lists take them. */
interface RecordsQuery {
  fields?: string;
  optionalFields?: string;
  pageSize?: number;
  pageToken?: string;
  sortBy?: string;
}

const recordsRequest = (query: RecordsQuery & { searchTerm?: string; where?: string }) => ({
  fields: splitFieldList(query.fields),
  optionalFields: splitFieldList(query.optionalFields),
  pageSize: query.pageSize,
  pageToken: query.pageToken,
  sortBy: query.sortBy,
  searchTerm: query.searchTerm,
  where: query.where,
});

/** A list view id where an object API name may stand (list-ui, list-info): 00B and 12 or 15 more characters. */
const isListViewId = (text: string) => /^00B[a-zA-Z0-9]{12}(?:[a-zA-Z0-9]{3})?$/.test(text);

export function listRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const now = () => new Date(options.clock?.now() ?? Date.now());

  implement(app, routes.getListRecordsByName, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    // The body is optional: absent, the first page in the list view's own order.
    const body = c.req.valid('json') ?? {};
    const page = await readListRecords(db, c.var.principal, { objectApiName, listViewApiName }, { ...body }, now());
    return c.json(page, 200);
  });

  implement(app, routes.getListRecordsByApiName, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return c.json(
      await readListRecords(
        db,
        c.var.principal,
        { objectApiName, listViewApiName },
        recordsRequest(c.req.valid('query')),
        now(),
      ),
      200,
    );
  });

  implement(app, routes.getListRecordsById, async (c) => {
    return c.json(
      await readListRecords(
        db,
        c.var.principal,
        { listViewId: c.req.valid('param').listViewId },
        recordsRequest(c.req.valid('query')),
        now(),
      ),
      200,
    );
  });

  implement(app, routes.getMruListRecords, async (c) => {
    const { objectApiName } = c.req.valid('param');
    return c.json(
      await readListRecords(
        db,
        c.var.principal,
        { objectApiName, listViewApiName: MRU_LIST_VIEW },
        recordsRequest(c.req.valid('query')),
        now(),
      ),
      200,
    );
  });

  implement(app, routes.getListUiByApiName, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return withETag(
      c,
      await getListUi(
        db,
        c.var.principal,
        { objectApiName, listViewApiName },
        recordsRequest(c.req.valid('query')),
        now(),
      ),
    );
  });

  implement(app, routes.getMruListUi, async (c) => {
    const { objectApiName } = c.req.valid('param');
    return withETag(
      c,
      await getListUi(
        db,
        c.var.principal,
        { objectApiName, listViewApiName: MRU_LIST_VIEW },
        recordsRequest(c.req.valid('query')),
        now(),
      ),
    );
  });

  implement(app, routes.getListViewSummaryCollection, async (c) => {
    const { objectApiName } = c.req.valid('param');
    const query = c.req.valid('query');
    if (isListViewId(objectApiName))
      return withETag(
        c,
        await getListUi(db, c.var.principal, { listViewId: objectApiName }, recordsRequest(query), now()),
      );
    return withETag(c, await listViewSummaries(db, c.var.principal, objectApiName, query));
  });

  // Before list-info/{objectApiName}, which would take `batch` for an object's name.
  implement(app, routes.getListInfosByName, async (c) => {
    const { ids, names } = c.req.valid('query');
    return c.json(await getListInfos(db, c.var.principal, splitFieldList(ids), splitFieldList(names)), 200);
  });

  implement(app, routes.getListInfosByObjectName, async (c) => {
    const { objectApiName } = c.req.valid('param');
    if (isListViewId(objectApiName)) return withETag(c, await getListInfoById(db, c.var.principal, objectApiName));
    return c.json(await listInfoSummaries(db, c.var.principal, objectApiName, c.req.valid('query')), 200);
  });

  implement(app, routes.getListInfoByName, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return withETag(c, await getListInfo(db, c.var.principal, objectApiName, listViewApiName));
  });

  implement(app, routes.getMruListInfo, async (c) =>
    withETag(c, await getListInfo(db, c.var.principal, c.req.valid('param').objectApiName, MRU_LIST_VIEW)),
  );

  implement(app, routes.createListInfo, async (c) =>
    c.json(await createListInfo(db, c.var.principal, c.req.valid('param').objectApiName, c.req.valid('json')), 201),
  );

  implement(app, routes.updateListInfoByName, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return c.json(await updateListInfo(db, c.var.principal, objectApiName, listViewApiName, c.req.valid('json')), 200);
  });

  implement(app, routes.deleteListInfo, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    await deleteListInfo(db, c.var.principal, objectApiName, listViewApiName);
    return c.body(null, 204);
  });

  implement(app, routes.getListPreferences, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return c.json(await getListPreferences(db, c.var.principal, objectApiName, listViewApiName), 200);
  });

  implement(app, routes.updateListPreferences, async (c) => {
    const { objectApiName, listViewApiName } = c.req.valid('param');
    return c.json(
      await updateListPreferences(db, c.var.principal, objectApiName, listViewApiName, c.req.valid('json')),
      200,
    );
  });

  implement(app, routes.getListObjectInfo, async (c) =>
    c.json(await getListObjectInfo(db, c.var.principal, c.req.valid('param').objectApiName), 200),
  );

  return app;
}
