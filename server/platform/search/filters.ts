/**
 * Search filters (getSearchFilterMetadata, getSearchFilterOptions): the filters metadata/search.json sets up
 * for an object, on fields the caller may read (a filter on a field it may not read does not exist for it),
 * typed in (Text) or chosen (Select); a Select filter's options are its picklist's values, those whose label
 * holds what the user typed. The org files no object under data categories, so every filter is of kind Field.
 */
import type { Schemas } from '../../../generated/types.ts';
import type { Queryable } from '../../db/connection.ts';
import { MASTER_RECORD_TYPE_ID } from '../core/ids.ts';
import type { Principal } from '../core/principal.ts';
import { cut, illegalValue } from '../query/errors.ts';
import { rootScope, readableField } from '../query/fields.ts';
import type { QueryTarget } from '../query/target.ts';
import { invalidField } from '../records/field-paths.ts';
import { checkedTerm, configurationObjects, objectSetup, searchTargetNamed, type SearchFilterSetup } from './common.ts';

/** The filters of an object that the caller may use, with their fields. */
function usableFilters(target: QueryTarget) {
  const root = rootScope(target.object, 'r');
  return objectSetup(target.object).filters.flatMap((filter) => {
    const field = readableField(target, root, filter.field);
    return field ? [{ filter, field }] : [];
  });
}

async function filterTarget(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  configurationName?: string,
): Promise<QueryTarget> {
  const target = await searchTargetNamed(db, principal, objectApiName);
  if (configurationName !== undefined && !configurationObjects(configurationName).includes(target.object.apiName)) {
    throw illegalValue('configurationName', `${cut(configurationName)} does not search ${target.object.apiName}`);
  }
  return target;
}

export async function searchFilterMetadata(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  options: { configurationName?: string },
): Promise<Schemas['SearchFilterMetadataCollectionRepresentation']> {
  const target = await filterTarget(db, principal, objectApiName, options.configurationName);
  const { apiName } = target.object;
  return {
    filters: usableFilters(target).map(({ filter, field }) => ({
      apiName: field.apiName,
      attributes: {
        affectsSearchResults: true,
        hasInitialOptions: filter.type === 'Select' && filter.hasInitialOptions,
      },
      fieldPath: `${apiName}.${field.apiName}`,
      kind: 'Field' as const,
      label: field.label,
      objectApiName: apiName,
      type: filter.type,
    })),
    objectApiName: apiName,
  };
}

const MAX_FILTER_OPTIONS = 200;

export async function searchFilterOptions(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  filterApiName: string,
  q: string | undefined,
): Promise<Schemas['SearchFilterOptionCollectionRepresentation']> {
  const target = await filterTarget(db, principal, objectApiName);
  const found = usableFilters(target).find(({ field }) => field.apiName.toLowerCase() === filterApiName.toLowerCase());
  if (!found) throw invalidField(target.object.apiName, cut(filterApiName));
  const { filter, field } = found as { filter: SearchFilterSetup; field: { apiName: string } };
  if (filter.type !== 'Select')
    throw illegalValue('filterApiName', `${field.apiName} is a Text filter, which has no options`);
  const term = checkedTerm(q, 0);
  const base = { filterApiName: field.apiName, objectApiName: target.object.apiName };
  if (term === null && !filter.hasInitialOptions) return { ...base, options: [] };
  // The term only ever travels as a parameter; strpos looks for it as it is (no pattern characters).
  const { rows } = await db.query<{ label: string; value: string }>(
    `SELECT label, value FROM picklist_value
     WHERE object_api_name = $1 AND field_api_name = $2 AND record_type_id = $3 AND ($4::text IS NULL OR strpos(lower(label), lower($4::text)) > 0)
     ORDER BY position LIMIT $5`,
    [target.object.apiName, field.apiName, MASTER_RECORD_TYPE_ID, term, MAX_FILTER_OPTIONS],
  );
  return { ...base, options: rows.map((row) => ({ label: row.label, value: row.value })) };
}
