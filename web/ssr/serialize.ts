import type { DehydratedState } from '@tanstack/react-query';
import { memoByObject } from '../src/lib/memo.ts';

/**
 * JSON for a <script type="application/json"> element: "<" is escaped so that no "</script>" or "<!--"
 * in the data can end the element, ">" and "&" for good measure, U+2028/9 so that the text is also a
 * valid JavaScript literal. JSON.parse reads the escapes back as the same characters.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => ESCAPES[char]);
}

/** Text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The JSON of each query's data, by the data's identity: what is kept for guests (guest-data.ts) is the same
 * object render after render, so its JSON (the object info alone is some 16 KB) is made once. Query data is
 * never changed in place (TanStack Query replaces it), so the text stays true to the object.
 */
const dataJson = memoByObject((data: object) => serializeForScript(data));

function queryDataJson(data: unknown): string {
  return typeof data === 'object' && data !== null ? dataJson(data) : serializeForScript(data);
}

/** serializeForScript of dehydrated queries: the same text, each query's data made once per data object. */
export function serializeQueryState({ queries, mutations }: DehydratedState): string {
  const queryJson = ({ state: { data, ...state }, ...query }: DehydratedState['queries'][number]) => {
    // Both objects always have properties (a status; a key and hash), so "{" opens each and a comma may follow.
    const stateJson =
      data === undefined
        ? serializeForScript(state)
        : `{"data":${queryDataJson(data)},${serializeForScript(state).slice(1)}`;
    return `{"state":${stateJson},${serializeForScript(query).slice(1)}`;
  };
  return `{"mutations":${serializeForScript(mutations)},"queries":[${queries.map(queryJson).join(',')}]}`;
}
