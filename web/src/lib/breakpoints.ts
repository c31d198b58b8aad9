/**
 * The page's breakpoints: mobile up to 47.9375em, tablet 48em–64em, desktop from 64.0625em.
 * styles/*.css repeats them in its media queries (custom properties cannot be used there).
 */
export type FormFactor = 'mobile' | 'tablet' | 'desktop';

export const FORM_FACTORS: readonly FormFactor[] = ['mobile', 'tablet', 'desktop'];

export const MEDIA_QUERIES: Record<FormFactor, string> = {
  mobile: '(max-width: 47.9375em)',
  tablet: '(min-width: 48em) and (max-width: 64em)',
  desktop: '(min-width: 64.0625em)',
};

/** A value that may differ per device. */
export type PerDevice<T> = T | Partial<Record<FormFactor, T>>;

function isPerDeviceObject<T>(value: PerDevice<T>): value is Partial<Record<FormFactor, T>> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    FORM_FACTORS.some((device) => device in value)
  );
}

/**
 * One value per device: a plain value applies everywhere; a per-device object falls back from desktop
 * to tablet to mobile (and back up), then to the default.
 */
export function perDevice<T>(value: PerDevice<T> | undefined, fallback: T): Record<FormFactor, T> {
  if (value === undefined) return { mobile: fallback, tablet: fallback, desktop: fallback };
  if (!isPerDeviceObject(value)) return { mobile: value as T, tablet: value as T, desktop: value as T };
  const desktop = value.desktop ?? value.tablet ?? value.mobile ?? fallback;
  const tablet = value.tablet ?? value.desktop ?? value.mobile ?? fallback;
  const mobile = value.mobile ?? value.tablet ?? value.desktop ?? fallback;
  return { mobile, tablet, desktop };
}
