/**
 * The support-lines label of the Contact Us page (spec §3): one text of eight parts separated by `|`, the
 * four values (US, international, technical and web store support) and then their four row labels.
 */

export interface SupportLine {
  label: string;
  value: string;
}

export const SUPPORT_LINE_COUNT = 4;

/**
 * The four label and value rows, in the page's order. Parts are trimmed; a label with other than eight
 * parts, or an empty part, is not a support-lines label (null), so that a broken label shows nothing
 * rather than rows out of step.
 */
export function splitSupportLabel(text: string): SupportLine[] | null {
  const parts = text.split('|').map((part) => part.trim());
  if (parts.length !== SUPPORT_LINE_COUNT * 2 || parts.some((part) => part === '')) return null;
  return parts.slice(0, SUPPORT_LINE_COUNT).map((value, index) => ({ label: parts[SUPPORT_LINE_COUNT + index], value }));
}

/** The label text for four rows: the inverse of splitSupportLabel. */
export function joinSupportLabel(lines: SupportLine[]): string {
  if (lines.length !== SUPPORT_LINE_COUNT) throw new Error(`A support-lines label has ${SUPPORT_LINE_COUNT} rows, not ${lines.length}`);
  for (const line of lines) {
    if ([line.label, line.value].some((part) => part.includes('|') || part.trim() === '')) throw new Error(`Bad support line: ${JSON.stringify(line)}`);
  }
  return [...lines.map((line) => line.value), ...lines.map((line) => line.label)].join('|');
}
