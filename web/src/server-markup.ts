/**
 * Markup only the server makes: what the page holds for visitors without JavaScript, inside <noscript>,
 * whose content React renders on the server only and a browser with JavaScript never shows. The server's
 * renderer provides it (web/ssr/server-markup.ts); in the browser there is none, and none of its code is in
 * the page's script.
 */
import { createContext, useContext } from 'react';
import type { ComboboxOption } from './components/combobox/Combobox';

/** A field of the locator's form for visitors without JavaScript (LocatorFallbackForm). */
export interface FallbackField {
  name: 'brand' | 'country' | 'state';
  label: string;
  placeholder: string;
  options: readonly ComboboxOption[];
  value: string | null;
}

export interface FallbackForm {
  /** Where the form is sent (GET): the page's path. */
  action: string;
  fields: readonly FallbackField[];
}

export interface ServerMarkup {
  locatorFallbackForm(form: FallbackForm): string;
}

const ServerMarkupContext = createContext<ServerMarkup | null>(null);

export const ServerMarkupProvider = ServerMarkupContext.Provider;

export function useServerMarkup(): ServerMarkup | null {
  return useContext(ServerMarkupContext);
}
