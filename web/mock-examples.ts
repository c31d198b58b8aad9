/**
 * npm run dev:mock: which of the contract's examples Prism should answer (Prism answers the example a request
 * names in `Prefer: example=NAME`, else the first), read from the examples themselves. For getContacts, so that
 * the page shows contacts of the country and state chosen: the largest one whose contacts are all in the country
 * (and state) asked for; the empty one when none is. The brand is not looked at (a card does not show it). For
 * getRecordUi, so that the back office's edit form gets an Edit layout: the first one with a layout in every mode
 * asked for. Only the dev server uses this (web/build-plugins.ts), never the page.
 */

export const GET_CONTACTS_PATH = '/lwr/apex/v65.0/APT_ContactUsController/getContacts';
const GET_RECORD_UI_PATH = '/services/data/v65.0/ui-api/record-ui/{recordIds}';

interface Card {
  APT_Primary_State__c?: string | null;
  APT_UI_Country__c?: string | null;
}

export interface ContactsExample {
  name: string;
  contacts: readonly Card[];
}

type Json = Record<string, unknown>;

/** The named examples of a GET's 200 answer in the bundled contract, each with its value ($refs followed). */
function answerExamples(contract: Json, path: string): [string, unknown][] {
  const paths = contract.paths as Record<string, Record<string, Json>>;
  const answer = (paths[path]?.get?.responses as Record<string, Json> | undefined)?.['200'];
  const examples = ((answer?.content as Record<string, Json> | undefined)?.['application/json']?.examples ??
    {}) as Record<string, Json>;
  const components = ((contract.components as Json | undefined)?.examples ?? {}) as Record<string, Json>;
  return Object.entries(examples).map(([name, example]) => {
    const ref = typeof example.$ref === 'string' ? example.$ref.replace('#/components/examples/', '') : undefined;
    return [name, (ref ? components[ref] : example)?.value];
  });
}

/** The named examples of getContacts' 200 answer. */
export function contactsExamples(contract: Json): ContactsExample[] {
  return answerExamples(contract, GET_CONTACTS_PATH).map(([name, value]) => ({
    name,
    contacts: (value as { contacts?: Card[] } | undefined)?.contacts ?? [],
  }));
}

export interface RecordUiExample {
  name: string;
  /** The modes of its layouts (View, Edit, Create). */
  modes: readonly string[];
}

/** The named examples of getRecordUi's 200 answer, each with the modes of its layouts. */
export function recordUiExamples(contract: Json): RecordUiExample[] {
  return answerExamples(contract, GET_RECORD_UI_PATH).map(([name, value]) => {
    // layouts: object → record type → layout type → mode → layout.
    const layouts = ((value as { layouts?: Json } | undefined)?.layouts ?? {}) as Record<
      string,
      Record<string, Record<string, Json>>
    >;
    const modes = Object.values(layouts).flatMap((byType) =>
      Object.values(byType).flatMap((byLayout) => Object.values(byLayout).flatMap((byMode) => Object.keys(byMode))),
    );
    return { name, modes: [...new Set(modes)] };
  });
}

/** The Prefer header for a getRecordUi request's address: the example in every mode asked (View when none is). */
export function recordUiPreferHeader(examples: readonly RecordUiExample[], url: string): string | undefined {
  const parsed = new URL(url, 'http://dev.invalid');
  if (!parsed.pathname.startsWith(GET_RECORD_UI_PATH.replace('{recordIds}', ''))) return undefined;
  const asked = (parsed.searchParams.get('modes') || 'View').split(',');
  const name = examples.find((example) => asked.every((mode) => example.modes.includes(mode)))?.name;
  return name ? `example=${name}` : undefined;
}

export interface ContactsFilters {
  country?: string | null;
  state?: string | null;
}

/** The example to answer for these filters; undefined when the contract has none to choose from. */
export function contactsExampleFor(
  examples: readonly ContactsExample[],
  { country, state }: ContactsFilters,
): string | undefined {
  const matches = (card: Card) =>
    (!country || card.APT_UI_Country__c === country) && (!state || card.APT_Primary_State__c === state);
  const fitting = examples.filter((example) => example.contacts.length > 0 && example.contacts.every(matches));
  if (fitting.length)
    return fitting.reduce((largest, example) => (example.contacts.length > largest.contacts.length ? example : largest))
      .name;
  return examples.find((example) => example.contacts.length === 0)?.name;
}

/** The Prefer header for a getContacts request's address (path and query); undefined for any other request. */
export function preferHeaderFor(examples: readonly ContactsExample[], url: string): string | undefined {
  const parsed = new URL(url, 'http://dev.invalid');
  if (parsed.pathname !== GET_CONTACTS_PATH) return undefined;
  let filters: ContactsFilters & { lastRecordId?: string | null };
  try {
    filters = JSON.parse(parsed.searchParams.get('methodParams') ?? '{}') as ContactsFilters & {
      lastRecordId?: string | null;
    };
  } catch {
    return undefined;
  }
  // An example holds every contact of its filters: after its last one there are no more.
  const name = filters.lastRecordId
    ? examples.find((example) => example.contacts.length === 0)?.name
    : contactsExampleFor(examples, filters);
  return name ? `example=${name}` : undefined;
}
