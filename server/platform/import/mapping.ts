/**
 * Which field each column of an import's file goes to: the user's choice for a column when the request makes one,
 * else (when the request chooses none at all) the user's saved mapping, else the field whose API name or label
 * is the column's header, without regard to case or surrounding spaces. Only fields the user may read are mapped.
 * A column of a field the user may neither create nor update (Id, Name, CreatedDate...) is mapped but read-only:
 * never written and never compared. Saved mappings are kept per user and object (table import_mapping, migration
 * 028).
 */
import type { Queryable } from '../../db/connection.ts';
import type { FieldDefinition } from '../core/definitions.ts';
import { visibleObject, type DescribedObject } from '../core/describe.ts';
import { noAccess } from '../core/errors.ts';
import { fieldPermissions, type Principal } from '../core/principal.ts';
import { writableBy } from '../records/write-rules.ts';
import { ImportError } from './errors.ts';
import { MAX_COLUMNS } from './parse.ts';
import type { ColumnChoices, ImportColumn, MappedBy } from '../../../common/import-report.ts';

/** The longest header a saved mapping keeps. */
const MAX_HEADER_LENGTH = 255;

const key = (text: string) => text.trim().toLowerCase();

/** The fields of the object the user may read, which columns may be mapped to. */
export function mappableFields(principal: Principal, object: DescribedObject): FieldDefinition[] {
  return object.fields.filter((field) => fieldPermissions(principal, object.apiName, field.apiName).read);
}

/** Whether the user may give the field a value in neither a create nor an update. */
export function isReadOnly(principal: Principal, object: DescribedObject, field: FieldDefinition): boolean {
  return !writableBy(principal, object, field, 'create') && !writableBy(principal, object, field, 'update');
}

/** The field a choice names, by API name without regard to case; undefined for none the user may read. */
function fieldChosen(fields: FieldDefinition[], name: string): FieldDefinition | undefined {
  return fields.find((field) => field.apiName.toLowerCase() === key(name));
}

/**
 * The columns of a file's header, each with its field. `chosen` is the request's mapping (its columns are mapped
 * as it says, the others automatically); without it, `saved` (the user's saved mapping) comes first. A column
 * chosen (or saved) for a field another column has is INVALID_MAPPING; one found automatically is then left
 * out. Throws NO_MAPPABLE_COLUMN when no column goes to a field the user may write.
 */
export function mapColumns(
  principal: Principal,
  object: DescribedObject,
  header: string[],
  chosen: ColumnChoices | undefined,
  saved: ColumnChoices,
): ImportColumn[] {
  if (
    chosen !== undefined &&
    (typeof chosen !== 'object' ||
      chosen === null ||
      Array.isArray(chosen) ||
      Object.values(chosen).some((name) => name !== null && typeof name !== 'string'))
  )
    throw new ImportError('INVALID_MAPPING', 'A mapping is an object of column headers and field API names or null.');
  const fields = mappableFields(principal, object);
  const byApiName = new Map(fields.map((field) => [key(field.apiName), field]));
  const byLabel = new Map<string, FieldDefinition>();
  for (const field of fields) if (!byLabel.has(key(field.label))) byLabel.set(key(field.label), field);
  const choices = chosen ?? saved;
  const choiceOf = (name: string) =>
    Object.entries(choices).find(([column]) => column.trim() === name.trim()) as [string, string | null] | undefined;
  const taken = new Map<string, string>();
  const columns = header.map((name): ImportColumn => {
    let field: FieldDefinition | undefined;
    let by: MappedBy | null = null;
    const choice = choiceOf(name);
    if (choice && choice[1] === null) return { header: name, field: null, fieldLabel: null, by: null, readOnly: false };
    if (choice) {
      field = fieldChosen(fields, choice[1]!);
      if (field) by = chosen ? 'chosen' : 'saved';
      else if (chosen)
        throw new ImportError(
          'INVALID_MAPPING',
          `Column '${name}' is mapped to '${choice[1]}', which is not a field of ${object.definition.label}.`,
        );
    }
    if (!field) {
      field = byApiName.get(key(name));
      by = field ? 'apiName' : null;
    }
    if (!field) {
      field = byLabel.get(key(name));
      by = field ? 'label' : null;
    }
    if (!field) return { header: name, field: null, fieldLabel: null, by: null, readOnly: false };
    const before = taken.get(field.apiName);
    if (before !== undefined) {
      if (by === 'chosen' || by === 'saved')
        throw new ImportError(
          'INVALID_MAPPING',
          `Columns '${before}' and '${name}' are both mapped to ${field.label} (${field.apiName}).`,
        );
      return { header: name, field: null, fieldLabel: null, by: null, readOnly: false };
    }
    taken.set(field.apiName, name);
    return {
      header: name,
      field: field.apiName,
      fieldLabel: field.label,
      by,
      readOnly: isReadOnly(principal, object, field),
    };
  });
  if (!columns.some((column) => column.field && !column.readOnly))
    throw new ImportError(
      'NO_MAPPABLE_COLUMN',
      `No column of the file goes to a field of ${object.definition.label} that can be imported: name the columns by the fields' labels or API names, or map them.`,
    );
  return columns;
}

/** The object an import or a mapping is for, as the user sees it; 404 (PlatformError) when the user may not. */
export async function importObject(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<DescribedObject> {
  const object = await visibleObject(db, objectApiName, principal);
  if (!object) throw noAccess();
  return object;
}

/** The user's saved mapping for the object ({} when none). */
export async function readSavedMapping(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
): Promise<ColumnChoices> {
  const object = await importObject(db, principal, objectApiName);
  const { rows } = await db.query<{ mapping: ColumnChoices }>(
    'SELECT mapping FROM import_mapping WHERE user_id = $1 AND object_api_name = $2',
    [principal.userId, object.apiName],
  );
  return rows[0]?.mapping ?? {};
}

/**
 * Saves the user's mapping for the object, in place of the one saved before: header → field API name (kept in
 * the field's spelling) or null. INVALID_MAPPING for anything else: a field the user may not read, a header
 * empty or longer than 255 characters, more than 500 columns.
 */
export async function saveMapping(
  db: Queryable,
  principal: Principal,
  objectApiName: string,
  mapping: unknown,
): Promise<void> {
  const object = await importObject(db, principal, objectApiName);
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping))
    throw new ImportError('INVALID_MAPPING', 'A mapping is an object of column headers and field API names.');
  const entries = Object.entries(mapping as Record<string, unknown>);
  if (entries.length > MAX_COLUMNS)
    throw new ImportError('INVALID_MAPPING', `A mapping holds ${MAX_COLUMNS} columns at most.`);
  const fields = mappableFields(principal, object);
  const saved: ColumnChoices = {};
  for (const [header, name] of entries) {
    const column = header.trim();
    if (column === '' || column.length > MAX_HEADER_LENGTH)
      throw new ImportError('INVALID_MAPPING', `A column's header has 1 to ${MAX_HEADER_LENGTH} characters.`);
    if (name === null) {
      saved[column] = null;
      continue;
    }
    const field = typeof name === 'string' ? fieldChosen(fields, name) : undefined;
    if (!field)
      throw new ImportError(
        'INVALID_MAPPING',
        `Column '${column.slice(0, 80)}' is mapped to ${JSON.stringify(name).slice(0, 80)}, which is not a field of ${object.definition.label}.`,
      );
    saved[column] = field.apiName;
  }
  await db.query(
    `INSERT INTO import_mapping (user_id, object_api_name, mapping, updated_at) VALUES ($1, $2, $3::jsonb, now())
     ON CONFLICT (user_id, object_api_name) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = now()`,
    [principal.userId, object.apiName, JSON.stringify(saved)],
  );
}
