import { useServerMarkup, type FallbackForm } from '../server-markup';

/**
 * The filters for visitors without JavaScript: a plain GET form of native selects, inside <noscript> (the
 * comboboxes, which need JavaScript, are hidden then). A new country lists its states after "Show
 * contacts"; a state left from another country is dropped by the page. Its markup, some 260 options, is
 * made by the server (web/ssr/server-markup.ts); the browser, which never shows it, makes none of it and keeps
 * what the server sent (hydration does not look inside <noscript>).
 */
export function LocatorFallbackForm(form: FallbackForm) {
  const markup = useServerMarkup();
  return (
    <noscript
      suppressHydrationWarning
      dangerouslySetInnerHTML={markup ? { __html: markup.locatorFallbackForm(form) } : undefined}
    />
  );
}
