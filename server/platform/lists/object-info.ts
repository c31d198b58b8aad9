/**
 * GET list-object-info/{objectApiName}: what list views of an object may use - the scopes, and each field the
 * caller may read that a list can show (with whether it can be filtered and sorted, the operators its filters
 * take and its picklist values) - and whether the caller may create list views, Public or Shared ones too.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { MASTER_RECORD_TYPE_ID } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { isFilterable, isSortable, valueKindOf } from '../query/fields.ts';
import { createsListViews, managesListViews } from './access.ts';
import { objectContext } from './context.ts';
import { SCOPES } from './definitions.ts';
import { defaultFilterOperator, filterOperators } from './filters.ts';
import { scopeLabel } from './info.ts';

export async function getListObjectInfo(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<Schemas['ListObjectInfoRepresentation']> {
  const { object, target } = await objectContext(db, principal, objectApiName);
  const { rows } = await db.query<{ field_api_name: string; value: string; label: string }>(
    'SELECT field_api_name, value, label FROM picklist_value WHERE object_api_name = $1 AND record_type_id = $2 ORDER BY field_api_name, position',
    [object.apiName, MASTER_RECORD_TYPE_ID],
  );
  const picklists = new Map<string, { apiName: string; label: string }[]>();
  for (const row of rows) {
    let values = picklists.get(row.field_api_name);
    if (!values) picklists.set(row.field_api_name, (values = []));
    values.push({ apiName: row.value, label: row.label });
  }
  const columns = object.fields
    .filter((field) => valueKindOf(field) !== null && target.access.canReadField(object, field))
    .map((field) => {
      const filterable = isFilterable(field);
      return {
        alias: null,
        dataType: field.dataType,
        defaultFilterOperator: filterable ? defaultFilterOperator(field) : null,
        displayable: true,
        fieldApiName: field.apiName,
        filterable,
        label: field.label,
        picklistValues: picklists.get(field.apiName) ?? [],
        quickFilterOperator: null,
        quickFilterable: false,
        sortable: isSortable(field),
        supportedFilterOperators: filterable ? filterOperators(field) : [],
      };
    });
  return {
    availableScopes: SCOPES.map((scope) => ({
      apiName: scope,
      availableEntities: [],
      label: scopeLabel(object, scope),
    })),
    columns,
    createable: createsListViews(principal, object),
    objectApiName: object.apiName,
    publicOrSharedCreatable: managesListViews(principal, object),
    relatedEntityApiName: null,
  };
}
