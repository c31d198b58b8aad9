/**
 * The related-list data files (server/platform/metadata/related-lists): each names an object of the org, and
 * each related list of its layouts a child relationship the object has, columns and an order of fields the
 * child object has (a relationship's field through its relationship name), and a filter the where parser reads.
 */
import { describe, expect, it } from 'vitest';
import type { ObjectDefinition } from '../../server/platform/core/definitions.ts';
import { readObjectDefinitions } from '../../server/platform/metadata.ts';
import { parseWhere } from '../../server/platform/query/where-parser.ts';
import { relatedListFiles } from '../../server/platform/related-lists/definitions.ts';

const objects = new Map(readObjectDefinitions().map((object) => [object.apiName, object]));

/** The child relationships of a parent, from the reference fields of every object (as describe.ts derives them). */
function childRelationships(parent: string): Map<string, ObjectDefinition> {
  const found = new Map<string, ObjectDefinition>();
  for (const child of objects.values()) {
    for (const field of child.fields) {
      if (
        field.dataType === 'Reference' &&
        typeof field.childRelationshipName === 'string' &&
        field.referenceTo?.includes(parent)
      ) {
        found.set(field.childRelationshipName, child);
      }
    }
  }
  return found;
}

/** Whether a path names a field of the object: `Field`, or `Relationship.Field` of the object it references. */
function hasPath(object: ObjectDefinition, path: string): boolean {
  const [first, ...rest] = path.split('.');
  if (rest.length === 0) return object.fields.some((field) => field.apiName === first);
  const reference = object.fields.find((field) => field.relationshipName === first);
  const target = objects.get(reference?.referenceTo?.[0] ?? '');
  return !!target && hasPath(target, rest.join('.'));
}

describe('related-list data files', () => {
  const files = [...relatedListFiles().values()];

  it('are there, one per parent object', () => {
    expect(files.map((file) => file.parentObjectApiName)).toEqual(expect.arrayContaining(['Account', 'Contact']));
  });

  for (const file of files) {
    it(`${file.parentObjectApiName}: every related list names a child relationship, fields of its child and a readable filter`, () => {
      const parent = objects.get(file.parentObjectApiName);
      expect(parent, file.parentObjectApiName).toBeDefined();
      const relationships = childRelationships(file.parentObjectApiName);
      for (const layout of file.layouts) {
        const types = new Set(['Master', ...(parent!.recordTypes ?? []).map((type) => type.developerName)]);
        for (const type of layout.recordTypes) expect(types.has(type), `record type ${type}`).toBe(true);
        const ids = layout.relatedLists.map((entry) => entry.relatedListId.toLowerCase());
        expect(new Set(ids).size, 'related list ids are unique').toBe(ids.length);
        for (const entry of layout.relatedLists) {
          const child = relationships.get(entry.relationshipName ?? entry.relatedListId);
          expect(child, `${entry.relatedListId}: child relationship`).toBeDefined();
          for (const path of [...entry.displayColumns, ...(entry.orderedBy ?? []).map((key) => key.fieldApiName)]) {
            expect(hasPath(child!, path), `${entry.relatedListId}: ${path}`).toBe(true);
          }
          if (entry.where) expect(() => parseWhere(entry.where!)).not.toThrow();
        }
      }
    });
  }
});
