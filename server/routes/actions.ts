/** Actions: lists of actions (global, record, record edit, create, lookup, list views and their rows and charts, recent records, photos, Lightning pages, related lists), overrides, formulas, and quick actions. */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppOptions } from '../app-options.ts';
import type { Database } from '../db/connection.ts';
import { routes } from '../../generated/routes.ts';
import { withETag } from '../http/answers/cache-headers.ts';
import { validationHook } from '../http/errors.ts';
import { implement } from '../http/operations/operation.ts';
import type { AppEnv } from '../http/sessions/principal.ts';
import {
  getFlexipageActions,
  getGlobalActions,
  getListViewActions,
  getListViewChartActions,
  getListViewRecordActions,
  getLookupActions,
  getMruListActions,
  getObjectCreateActions,
  getPhotoActions,
  getRecordActions,
  getRecordEditActions,
  splitList,
} from '../platform/actions/lists.ts';
import { getActionOverrides, getFormulaActivation } from '../platform/actions/overrides.ts';
import {
  getRelatedListActions,
  getRelatedListRecordActions,
  getRelatedListsActions,
} from '../platform/actions/related-lists.ts';
import type { ActionListQuery } from '../platform/actions/listing.ts';
import {
  getQuickActionDefaults,
  getQuickActionInfo,
  getQuickActionLayout,
  performQuickAction,
  performUpdateRecordQuickAction,
} from '../platform/actions/quick-actions.ts';
import { splitFieldList } from '../platform/records/field-paths.ts';

/** The query parameters of the action lists, comma-separated, as lists. */
const listQuery = (query: {
  actionTypes?: string;
  apiNames?: string;
  formFactor?: string;
  retrievalMode?: 'All' | 'PageLayout';
  sections?: string;
}): ActionListQuery => ({
  actionTypes: splitList(query.actionTypes),
  apiNames: splitList(query.apiNames),
  formFactor: query.formFactor,
  retrievalMode: query.retrievalMode,
  sections: splitList(query.sections),
});

const ids = (text: string) => text.split(',');

export function actionRoutes(db: Database, options: AppOptions = {}) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const clock = options.clock;

  implement(app, routes.getGlobalActions, async (c) =>
    withETag(c, await getGlobalActions(db, c.var.principal, listQuery(c.req.valid('query')))),
  );

  implement(app, routes.getRecordActions, async (c) =>
    withETag(
      c,
      await getRecordActions(db, c.var.principal, ids(c.req.valid('param').recordIds), listQuery(c.req.valid('query'))),
    ),
  );

  implement(app, routes.getRecordEditActions, async (c) =>
    withETag(
      c,
      await getRecordEditActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').recordIds),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getObjectCreateActions, async (c) =>
    withETag(
      c,
      await getObjectCreateActions(
        db,
        c.var.principal,
        c.req.valid('param').objectApiName,
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getLookupActions, async (c) =>
    withETag(
      c,
      await getLookupActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').objectApiNames),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getListViewActions, async (c) =>
    withETag(
      c,
      await getListViewActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').listViewIds),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getMruListActions, async (c) =>
    withETag(
      c,
      await getMruListActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').objectApiNames),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getListViewChartActions, async (c) =>
    withETag(
      c,
      await getListViewChartActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').objectApiNames),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getListViewRecordActions, async (c) =>
    withETag(
      c,
      await getListViewRecordActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').recordIds),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  implement(app, routes.getPhotoActions, async (c) =>
    withETag(
      c,
      await getPhotoActions(db, c.var.principal, ids(c.req.valid('param').recordIds), listQuery(c.req.valid('query'))),
    ),
  );

  implement(app, routes.getFlexipageActions, async (c) =>
    withETag(
      c,
      await getFlexipageActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').flexipageNames),
        listQuery(c.req.valid('query')),
      ),
    ),
  );

  // Before the single related list, whose {relatedListId} would otherwise take "batch".
  implement(app, routes.getRelatedListsActions, async (c) =>
    c.json(
      await getRelatedListsActions(
        db,
        c.var.principal,
        ids(c.req.valid('param').recordIds),
        c.req.valid('json').relatedListsActionParameters,
      ),
      200,
    ),
  );

  implement(app, routes.getRelatedListActions, async (c) => {
    const { recordIds, relatedListId } = c.req.valid('param');
    // The body is optional: absent, every action of the related list.
    const body = c.req.valid('json') ?? {};
    return c.json(await getRelatedListActions(db, c.var.principal, ids(recordIds), relatedListId, body), 200);
  });

  implement(app, routes.getRelatedListActionsByQuery, async (c) => {
    const { recordIds, relatedListId } = c.req.valid('param');
    return withETag(
      c,
      await getRelatedListActions(db, c.var.principal, ids(recordIds), relatedListId, listQuery(c.req.valid('query'))),
    );
  });

  implement(app, routes.getRelatedListRecordActions, async (c) => {
    const { recordIds, relatedListRecordIds } = c.req.valid('param');
    return withETag(
      c,
      await getRelatedListRecordActions(
        db,
        c.var.principal,
        ids(recordIds),
        ids(relatedListRecordIds),
        listQuery(c.req.valid('query')),
      ),
    );
  });

  implement(app, routes.getActionOverrides, async (c) =>
    withETag(
      c,
      await getActionOverrides(db, c.var.principal, c.req.valid('param').objectApiName, c.req.valid('query')),
    ),
  );

  implement(app, routes.getFormulaActivation, async (c) =>
    withETag(
      c,
      await getFormulaActivation(db, c.var.principal, c.req.valid('param').actionFeature, {
        objectApiNames: splitList(c.req.valid('query').objectApiNames),
      }),
    ),
  );

  implement(app, routes.getQuickActionInfo, async (c) =>
    withETag(
      c,
      await getQuickActionInfo(db, c.var.principal, c.req.valid('param').actionApiName, c.req.valid('query')),
    ),
  );

  implement(app, routes.getQuickActionLayout, async (c) =>
    withETag(
      c,
      await getQuickActionLayout(db, c.var.principal, c.req.valid('param').actionApiName, c.req.valid('query')),
    ),
  );

  implement(app, routes.getQuickActionDefaults, async (c) => {
    const { optionalFields, parentRecordId } = c.req.valid('query');
    return withETag(
      c,
      await getQuickActionDefaults(db, c.var.principal, c.req.valid('param').actionApiName, {
        optionalFields: splitFieldList(optionalFields),
        parentRecordId,
      }),
    );
  });

  implement(app, routes.performQuickAction, async (c) =>
    c.json(
      await performQuickAction(db, c.var.principal, c.req.valid('param').actionApiName, c.req.valid('json'), { clock }),
      201,
    ),
  );

  implement(app, routes.performUpdateRecordQuickAction, async (c) =>
    c.json(
      await performUpdateRecordQuickAction(
        db,
        c.var.principal,
        c.req.valid('param').actionApiName,
        c.req.valid('json'),
        { clock },
      ),
      200,
    ),
  );

  return app;
}
