/** The four support lines of the default-contact block (product spec §3, "Support texts"). */
export interface SupportRow {
  label: string;
  value: string;
}

const LINE_COUNT = 4;

/**
 * The Contact Us custom label, split on "|" into eight parts: parts 1-4 are the values for US,
 * international, technical and web store support, parts 5-8 their labels. Rows with neither are left out.
 */
export function supportRowsFromLabel(label: string | null | undefined): SupportRow[] {
  if (!label) return [];
  const parts = label.split('|').map((part) => part.trim());
  const rows: SupportRow[] = [];
  for (let line = 0; line < LINE_COUNT; line++) {
    const value = parts[line] ?? '';
    const rowLabel = parts[line + LINE_COUNT] ?? '';
    if (value || rowLabel) rows.push({ label: rowLabel, value });
  }
  return rows;
}
