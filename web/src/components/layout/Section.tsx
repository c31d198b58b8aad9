/**
 * A page section (docs/product-spec.md §2, Layout building blocks): columns of 1 to 12 twelfths side by
 * side on desktop and stacked on tablet and mobile, with an optional background image per device under
 * an overlay colour.
 */
import type { CSSProperties, ReactNode } from 'react';
import type { FormFactor } from '../../lib/breakpoints';
import { cssUrl, safeCssColor } from '../../lib/css';

export interface SectionColumn {
  columnKey: string;
  columnName?: string;
  /** Twelfths of the row, 1–12 (default 12). */
  columnWidth?: number;
  children: ReactNode;
}

export type DeviceImages = Partial<Record<FormFactor, string>>;

export interface SectionProps {
  columns: readonly SectionColumn[];
  backgroundImage?: DeviceImages;
  backgroundColor?: string;
  overlayColor?: string;
  className?: string;
  /** The id of the section's heading, which names it as a region. */
  labelledBy?: string;
}

/** A column width as a percentage of the row: whole twelfths, 1 to 12. */
export function columnWidthPercent(width: number | undefined): string {
  const twelfths = Number.isFinite(width) ? Math.min(12, Math.max(1, Math.round(width as number))) : 12;
  return `${Number(((twelfths / 12) * 100).toFixed(4))}%`;
}

export function Section({
  columns,
  backgroundImage,
  backgroundColor,
  overlayColor,
  className,
  labelledBy,
}: SectionProps) {
  const overlay = safeCssColor(overlayColor);
  const style: Record<string, string | undefined> = {
    '--section-bg-mobile': cssUrl(backgroundImage?.mobile),
    '--section-bg-tablet': cssUrl(backgroundImage?.tablet),
    '--section-bg-desktop': cssUrl(backgroundImage?.desktop),
    '--section-overlay': overlay,
    backgroundColor: safeCssColor(backgroundColor),
  };
  for (const key of Object.keys(style)) if (style[key] === undefined) delete style[key];
  const Element = labelledBy ? 'section' : 'div';
  return (
    <Element
      className={['section', overlay && 'section--overlay', className].filter(Boolean).join(' ')}
      style={style as CSSProperties}
      aria-labelledby={labelledBy}
    >
      <div className="section__row">
        {columns.map((column) => (
          <div
            key={column.columnKey}
            className="section__column"
            data-column={column.columnName}
            style={{ '--column-width': columnWidthPercent(column.columnWidth) } as CSSProperties}
          >
            {column.children}
          </div>
        ))}
      </div>
    </Element>
  );
}
