/**
 * The support-lines label of the Contact Us page (see docs/product-spec.md §3, Support texts): one text of
 * eight parts separated by "|", the four values (US, international, technical and web store support) and
 * then their four row labels. The page reads it; the seed writes it.
 */
export interface SupportRow {
  label: string;
  value: string;
}

const SUPPORT_LINE_COUNT = 4;

/** The rows of a label, in the page's order: parts are trimmed, and rows with neither a value nor a label left out. */
export function supportRowsFromLabel(label: string | null | undefined): SupportRow[] {
  if (!label) return [];
  const parts = label.split('|').map((part) => part.trim());
  const rows: SupportRow[] = [];
  for (let line = 0; line < SUPPORT_LINE_COUNT; line++) {
    const value = parts[line] ?? '';
    const rowLabel = parts[line + SUPPORT_LINE_COUNT] ?? '';
    if (value || rowLabel) rows.push({ label: rowLabel, value });
  }
  return rows;
}

/** The label text of four rows, each with a value and a label: what supportRowsFromLabel reads back. */
export function supportLabelOf(rows: readonly SupportRow[]): string {
  if (rows.length !== SUPPORT_LINE_COUNT)
    throw new Error(`A support-lines label has ${SUPPORT_LINE_COUNT} rows, not ${rows.length}`);
  for (const row of rows) {
    if ([row.label, row.value].some((part) => part.includes('|') || part.trim() === ''))
      throw new Error(`Bad support line: ${JSON.stringify(row)}`);
  }
  return [...rows.map((row) => row.value), ...rows.map((row) => row.label)].join('|');
}
