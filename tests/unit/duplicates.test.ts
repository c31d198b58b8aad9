/** The pure parts of duplicate rules: filters, whether a write is refused, and the answers built from matches. */
import { describe, expect, it } from 'vitest';
import { contactUs } from '../support/contact-us-object.ts';
import {
  duplicateErrors,
  duplicatesRepresentation,
  meetsFilters,
  refusesWrite,
  type RuleMatch,
} from '../../server/platform/duplicates/match.ts';
import {
  duplicateConfiguration,
  rulesOf,
  type DuplicateRuleDefinition,
} from '../../server/platform/duplicates/rules.ts';

const rules = rulesOf(contactUs);
const [alert, block] = rules.duplicateRules;
const matchOf = (rule: DuplicateRuleDefinition, recordIds: string[], blocks: boolean): RuleMatch => ({
  rule,
  match: rules.matchRules.find((match) => match.name === rule.matchRules[0])!,
  recordIds,
  blocks,
});

describe('duplicate rules', () => {
  it("applies the alerting rule's filter: a record that is not the default contact, a missing flag counting as false", () => {
    expect(meetsFilters(contactUs, alert, {})).toBe(true);
    expect(meetsFilters(contactUs, alert, { APT_Default_Contact__c: false })).toBe(true);
    expect(meetsFilters(contactUs, alert, { APT_Default_Contact__c: true })).toBe(false);
    expect(meetsFilters(contactUs, block, { APT_Default_Contact__c: true })).toBe(true);
  });

  it('refuses a write on a blocking match always, on an alerting one unless saving anyway is asked', () => {
    expect(refusesWrite([], false)).toBe(false);
    expect(refusesWrite([matchOf(alert, ['a1C8d0000000001EAA'], false)], false)).toBe(true);
    expect(refusesWrite([matchOf(alert, ['a1C8d0000000001EAA'], false)], true)).toBe(false);
    expect(refusesWrite([matchOf(block, ['a1C8d0000000001EAA'], true)], true)).toBe(true);
  });

  it('answers predupe with one match per object, each duplicate under the first rule that found it', () => {
    const answer = duplicatesRepresentation(
      contactUs,
      [
        matchOf(block, ['a1C8d0000000002EAA'], true),
        matchOf(alert, ['a1C8d0000000001EAA', 'a1C8d0000000002EAA'], false),
      ],
      true,
    );
    expect(answer).toMatchObject({ allowSave: false, duplicateError: true, duplicateRules: [block.name, alert.name] });
    expect(answer.matches).toHaveLength(1);
    expect(answer.matches[0].recordIds).toEqual(['a1C8d0000000001EAA', 'a1C8d0000000002EAA']);
    expect(answer.matches[0].duplicateResultInfos['a1C8d0000000002EAA'].rule).toBe(block.name);
    expect(answer.matches[0].duplicateResultInfos['a1C8d0000000001EAA']).toMatchObject({
      allowSave: true,
      rule: alert.name,
    });
    expect(duplicatesRepresentation(contactUs, [], false)).toEqual({
      allowSave: true,
      duplicateError: false,
      duplicateRules: [],
      matches: [],
    });
  });

  it('gives one DUPLICATES_DETECTED error per duplicate rule, with its matches', () => {
    const errors = duplicateErrors(contactUs, [matchOf(block, ['a1C8d0000000002EAA'], true)]);
    expect(errors).toEqual([
      expect.objectContaining({
        errorCode: 'DUPLICATES_DETECTED',
        message: block.alertText,
        duplicateRecordError: {
          matchResults: [
            expect.objectContaining({
              isAllowSave: false,
              matchRecordIds: ['a1C8d0000000002EAA'],
              apiName: contactUs.apiName,
            }),
          ],
        },
      }),
    ]);
  });

  it('configures the fields every active rule compares, and a fuzzy engine for a rule with a fuzzy field', () => {
    const configuration = duplicateConfiguration(contactUs);
    expect(configuration.dedupeFields).toEqual(['APT_Company_Name__c', 'APT_Email__c', 'APT_Phone__c']);
    expect(configuration.duplicateRules.map((rule) => rule.matchRules[0].matchEngine)).toEqual([
      'FuzzyMatchEngine',
      'ExactMatchEngine',
    ]);
    expect(configuration.eTag).toMatch(/^[0-9a-f]{32}$/);
  });
});
