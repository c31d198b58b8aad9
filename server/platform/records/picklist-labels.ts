/**
 * The labels of picklist values, for displayValue. Only labels that differ from their values are kept: most
 * picklists (countries and states among them) label each value with itself. Picklist metadata changes only
 * when the server starts, so the labels are read once per database handle, like the org's describe.
 */
import type { Queryable } from '../../db/connection.ts';
import { oncePerDatabase } from '../../cache/per-database.ts';
import type { PicklistLabels } from './representation.ts';

async function readLabels(db: Queryable): Promise<PicklistLabels> {
  const { rows } = await db.query<{
    object_api_name: string;
    record_type_id: string;
    field_api_name: string;
    value: string;
    label: string;
  }>('SELECT object_api_name, record_type_id, field_api_name, value, label FROM picklist_value WHERE label <> value');
  const labels = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const key = `${row.object_api_name}/${row.record_type_id}/${row.field_api_name}`;
    const values = labels.get(key) ?? new Map<string, string>();
    values.set(row.value, row.label);
    labels.set(key, values);
  }
  return labels;
}

/** The picklist labels of the org, read once per database handle. */
export const picklistLabels = oncePerDatabase(readLabels);
