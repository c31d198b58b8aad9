/**
 * The import screen's pure parts (web/src/lightning/import/import-report.ts): the rows of a status a page at a
 * time, a change as the user reads it, the mapping sent back, and the commit's NDJSON lines read however the
 * answer is cut into chunks.
 */
import { describe, expect, it } from 'vitest';
import {
  changeText,
  keepHowMapped,
  mappingOf,
  ndjsonReader,
  pageOf,
  rowCount,
  rowsOf,
  rowsToWrite,
} from '../../web/src/lightning/import/import-report.ts';
import type { ImportReport, ImportRowReport, ImportRowStatus } from '../../common/import-report.ts';

function row(line: number, status: ImportRowStatus): ImportRowReport {
  return { line, status, recordId: null, changes: [], errors: [], warnings: [], outcome: null };
}

describe('the review’s rows', () => {
  const statuses: ImportRowStatus[] = ['new', 'changed', 'unchanged', 'invalid'];
  const rows = Array.from({ length: 50_000 }, (_, index) => row(index + 2, statuses[index % 4]));

  it('pages 50,000 rows 100 at a time, and keeps a page within them', () => {
    const first = pageOf(rows, 0);
    expect(first).toMatchObject({ page: 0, pages: 500, first: 1, last: 100 });
    expect(first.rows.map((each) => each.line)).toEqual(Array.from({ length: 100 }, (_, index) => index + 2));
    expect(pageOf(rows, 499)).toMatchObject({ page: 499, first: 49_901, last: 50_000 });
    // Past the end: the last page; before the start: the first.
    expect(pageOf(rows, 900)).toMatchObject({ page: 499 });
    expect(pageOf(rows, -3)).toMatchObject({ page: 0 });
    expect(pageOf([], 0)).toMatchObject({ rows: [], page: 0, pages: 1, first: 0, last: 0 });
    expect(pageOf(rows.slice(0, 130), 1)).toMatchObject({ first: 101, last: 130 });
  });

  it('keeps the rows of a status in file order', () => {
    const invalid = rowsOf(rows, 'invalid');
    expect(invalid).toHaveLength(12_500);
    expect(invalid.slice(0, 3).map((each) => each.line)).toEqual([5, 9, 13]);
    expect(rowsOf(rows, 'all')).toBe(rows);
  });

  it('says a change as "field: old → new", a blank as such', () => {
    expect(changeText({ field: 'APT_Phone__c', label: 'Phone', old: '555 0100', new: '555 0199' })).toBe(
      'Phone: 555 0100 → 555 0199',
    );
    expect(changeText({ field: 'APT_City__c', label: 'City', old: '', new: 'Sitka' })).toBe('City: (blank) → Sitka');
    expect(changeText({ field: 'APT_Active__c', label: '', old: 'true', new: 'false' })).toBe(
      'APT_Active__c: true → false',
    );
  });

  it('counts rows in words, and what an import would write', () => {
    expect(rowCount(1)).toBe('1 row');
    expect(rowCount(37_500)).toBe('37,500 rows');
    const totals = { rows: 4, new: 1, changed: 2, unchanged: 1, invalid: 0, created: 0, updated: 0, failed: 0 };
    expect(rowsToWrite({ totals } as ImportReport)).toBe(3);
  });

  it('sends back every column’s field as the table shows it, null for a column left out', () => {
    expect(
      mappingOf([
        { header: 'Company', field: 'APT_Company_Name__c', fieldLabel: null, by: 'label', readOnly: false },
        { header: 'Notes', field: null, fieldLabel: null, by: null, readOnly: false },
      ]),
    ).toEqual({ Company: 'APT_Company_Name__c', Notes: null });
  });
});

describe('how each column was mapped', () => {
  it('keeps how a column was first mapped while its field stays, and says chosen once the user changes it', () => {
    const first = [
      { header: 'Company', field: 'APT_Company_Name__c', fieldLabel: null, by: 'label' as const, readOnly: false },
      { header: 'Town', field: null, fieldLabel: null, by: null, readOnly: false },
      { header: 'Mail', field: 'APT_Email__c', fieldLabel: null, by: 'saved' as const, readOnly: false },
    ];
    const again = [
      { header: 'Company', field: 'APT_Company_Name__c', fieldLabel: null, by: 'chosen' as const, readOnly: false },
      { header: 'Town', field: 'APT_City__c', fieldLabel: null, by: 'chosen' as const, readOnly: false },
      { header: 'Mail', field: 'APT_Phone__c', fieldLabel: null, by: 'chosen' as const, readOnly: false },
    ];
    expect(keepHowMapped(first, again).map((column) => column.by)).toEqual(['label', 'chosen', 'chosen']);
    expect(keepHowMapped(null, again)).toBe(again);
  });
});

describe('the commit’s NDJSON answer', () => {
  const answer =
    '{"type":"progress","done":200,"total":500}\n{"type":"progress","done":400,"total":500}\n' +
    '{"type":"report","objectApiName":"APT_Contact_Us__c","committed":true,"text":"a → b\\nc"}\n';

  it('reads whole lines, whatever the chunks the answer comes in', () => {
    for (const size of [1, 3, 7, 50, answer.length]) {
      const reader = ndjsonReader();
      const lines = [];
      for (let at = 0; at < answer.length; at += size) lines.push(...reader.push(answer.slice(at, at + size)));
      lines.push(...reader.end());
      expect(
        lines.map((line) => line.type),
        `chunks of ${size}`,
      ).toEqual(['progress', 'progress', 'report']);
      expect(lines[2]).toMatchObject({ committed: true, text: 'a → b\nc' });
    }
  });

  it('reads a last line without its newline at the end', () => {
    const reader = ndjsonReader();
    expect(reader.push('{"type":"progress","done":1,"total":1}\n{"type":"rep')).toHaveLength(1);
    expect(reader.push('ort"}')).toEqual([]);
    expect(reader.end()).toEqual([{ type: 'report' }]);
  });
});
