/**
 * A list's column widths and wrapping as the user's list preferences keep them (getListPreferences,
 * updateListPreferences): widths in whole pixels by field, -1 or none for the default width; wrapping by
 * field, clipped when none is set, as the platform's list views show text. Pure functions.
 */

export interface ColumnPreferences {
  columnWidths: Record<string, number>;
  columnWrap: Record<string, boolean>;
}

/** The width of a column no one has resized. */
export const DEFAULT_COLUMN_WIDTH = 180;
/** The narrowest and widest a column may be made, as the platform's list views allow. */
export const MIN_COLUMN_WIDTH = 50;
export const MAX_COLUMN_WIDTH = 1000;
/** How far an arrow key moves a column's edge; with Shift, further. */
export const KEY_STEP = 10;
export const LARGE_KEY_STEP = 50;

export const clampWidth = (width: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));

/** A column's width: the user's, else the default. */
export function widthOf(preferences: ColumnPreferences | undefined, fieldApiName: string): number {
  const width = preferences?.columnWidths[fieldApiName];
  return width !== undefined && width > 0 ? clampWidth(width) : DEFAULT_COLUMN_WIDTH;
}

/** Whether a column's text wraps: only when the user chose so. */
export function wrapsOf(preferences: ColumnPreferences | undefined, fieldApiName: string): boolean {
  return preferences?.columnWrap[fieldApiName] === true;
}

/**
 * The width after a key on a column's edge: the arrows move it by a step (Shift: a larger one), Home and End
 * to the narrowest and widest; undefined for any other key.
 */
export function widthAfterKey(width: number, key: string, shiftKey: boolean): number | undefined {
  const step = shiftKey ? LARGE_KEY_STEP : KEY_STEP;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampWidth(width - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampWidth(width + step);
    case 'Home':
      return MIN_COLUMN_WIDTH;
    case 'End':
      return MAX_COLUMN_WIDTH;
    default:
      return undefined;
  }
}
