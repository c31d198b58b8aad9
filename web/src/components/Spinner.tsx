/** Sizes xx-small…large (default medium), variants base (default), brand, inverse (docs/product-spec.md §5). */
export type SpinnerSize = 'xx-small' | 'x-small' | 'small' | 'medium' | 'large';
export type SpinnerVariant = 'base' | 'brand' | 'inverse';

interface SpinnerProps {
  /** What is loading, for assistive technology; a spinner without it logs a console warning. */
  alternativeText: string;
  size?: SpinnerSize;
  variant?: SpinnerVariant;
}

export function Spinner({ alternativeText, size = 'medium', variant = 'base' }: SpinnerProps) {
  if (!alternativeText.trim()) console.warn('<Spinner> needs alternativeText: it is what a screen reader announces.');
  return (
    <div role="status" className={`spinner spinner--${size} spinner--${variant}`}>
      <span className="spinner__circle" aria-hidden="true" />
      <span className="spinner__label">{alternativeText}</span>
    </div>
  );
}
