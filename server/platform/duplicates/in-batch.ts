/**
 * The duplicate rules' check of a batch written in bulk (records/bulk-write.ts): whether they might refuse any of
 * its writes. The batch operation checks each write inside its transaction, after the writes before it, so that a
 * write is compared with the records as the earlier writes left them; here every write is compared at once with
 * the records as they are and with every other write of the batch as it will be stored, which finds whatever the
 * writes one at a time would find, and more. A batch where this finds anything is written one record at a time.
 * Only the rules that could refuse a write are run: a blocking rule, or an alerting one for a write that does not
 * save on a duplicate (an import's alerting rule, whose duplicates it saves, costs nothing here).
 */
import type { Queryable } from '../../db/connection.ts';
import type { DescribedObject } from '../core/describe.ts';
import type { Principal } from '../core/principal.ts';
import { canSeeRecord } from '../records/access.ts';
import type { DuplicateCandidate, MayRefuseDuplicates } from '../records/bulk-write.ts';
import { comparedValues, matchingRecords, trigramSchema, type ComparedValues } from './match.ts';
import { matchRulesOf, rulesOf, type MatchRuleDefinition } from './rules.ts';

/** Whether the platform sets a field's value at the write (an auto-number, a formula, a compound field). */
function derivedAtWrite(object: DescribedObject, name: string): boolean {
  const field = object.fieldsByName.get(name);
  return !field || typeof field.autoNumber === 'string' || typeof field.formula === 'string' || 'compoundOf' in field;
}

/** Whether some compared values match another write of the batch, under the matching rule's conditions. */
async function matchesWithinBatch(
  q: Queryable,
  match: MatchRuleDefinition,
  compared: ComparedValues[],
  writes: DuplicateCandidate[],
  trigram: string,
): Promise<boolean> {
  const params: unknown[] = [
    compared.map((one) => one.index),
    ...match.fields.map((_field, position) => compared.map((one) => one.conditions[position].value)),
    writes.map((_write, index) => index),
    writes.map((write) => JSON.stringify(write.values)),
  ];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const names = match.fields.map((_field, position) => `value_${position}`);
  const arrays = match.fields.map((_field, position) => `$${position + 2}::text[]`);
  const candidates = match.fields.length + 2;
  // The conditions read `fields`: the other write's values, as they read a stored record's.
  const where = compared[0].conditions.map((condition, position) =>
    condition.sql(`v.${names[position]}`, param, trigram),
  );
  const { rows } = await q.query(
    `SELECT 1 FROM unnest($1::int[], ${arrays.join(', ')}) AS v(n, ${names.join(', ')})
     JOIN (SELECT w.n, w.fields::jsonb AS fields FROM unnest($${candidates}::int[], $${candidates + 1}::text[]) AS w(n, fields)) AS c
       ON c.n <> v.n AND ${where.join(' AND ')}
     LIMIT 1`,
    params,
  );
  return rows.length > 0;
}

/** MayRefuseDuplicates for the object's duplicate rules. */
export const mayRefuseDuplicates: MayRefuseDuplicates = async (
  q: Queryable,
  principal: Principal,
  object: DescribedObject,
  writes: DuplicateCandidate[],
) => {
  const rules = rulesOf(object);
  for (const rule of rules.duplicateRules) {
    if (!rule.active) continue;
    for (const match of matchRulesOf(rules, rule)) {
      // A write saved anyway on a duplicate is refused only by a rule that blocks.
      const compared = comparedValues(object, rule, match, writes, (index) => {
        const write = writes[index];
        const blocks = (write.kind === 'create' ? rule.actionOnInsert : rule.actionOnUpdate) === 'Block';
        return !blocks && Boolean(write.allowSaveOnDuplicate);
      });
      if (compared.length === 0) continue;
      // A value the write sets later is not among the values compared with the other writes.
      if (match.fields.some((field) => derivedAtWrite(object, field.field))) return true;
      const trigram = match.fields.some((field) => field.method === 'Fuzzy') ? await trigramSchema(q) : '';
      const stored = await matchingRecords(q, object, match, compared, trigram);
      if (stored.some((row) => canSeeRecord(principal, object, row))) return true;
      if (await matchesWithinBatch(q, match, compared, writes, trigram)) return true;
    }
  }
  return false;
};
