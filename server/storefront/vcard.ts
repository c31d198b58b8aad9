/**
 * A representative as a vCard 4.0 (RFC 6350), for "Save contact (vCard)" on its page: KIND, FN, ORG, ADR, TEL,
 * EMAIL and the URL of its page, written by the vcard4 package (its properties, values and escaping). Two things
 * of its output are put right here: it folds lines every 75 UTF-16 code units, which can split a character and
 * makes lines of non-ASCII text longer than the 75 octets RFC 6350 §3.2 allows, so its lines are unfolded and
 * folded again by octets, never inside a character; and it escapes ":" in text, which RFC 6350 §3.4 does not
 * (only backslash, comma, semicolon and newline), so that escape is undone.
 */
import {
  AdrProperty,
  EmailProperty,
  FNProperty,
  KindProperty,
  OrgProperty,
  ParameterValueType,
  SpecialValueType,
  TelProperty,
  TextType,
  TypeParameter,
  URIType,
  URLProperty,
  VCARD,
} from 'vcard4';
import type { Schemas } from '../../generated/types.ts';

type Representative = Schemas['ContactUsRepresentative'];

/** Octets of a content line at most, line break not counted (RFC 6350 §3.2). */
const MAX_LINE_OCTETS = 75;

/** A stored text as a vCard text: line breaks as newlines (escaped by the writer), other control characters out. */
function clean(text: string | null | undefined): string | undefined {
  const cleaned = text
    ?.replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
    .trim();
  return cleaned ? cleaned : undefined;
}

const text = (value: string | null | undefined) => {
  const cleaned = clean(value);
  return cleaned === undefined ? undefined : new TextType(cleaned);
};

/** TYPE=work (TEL: work,voice), for a property of the writer's (its class name: TelProperty...). */
const work = (property: string, ...more: string[]) => [
  new TypeParameter(
    property,
    ['work', ...more].map((type) => new ParameterValueType(type)),
  ),
];

/**
 * Folds a content line into lines of at most 75 octets of UTF-8, each continuation line starting with a space
 * (which counts), breaking between characters (code points), never inside one.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_LINE_OCTETS) return line;
  let folded = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > MAX_LINE_OCTETS) {
      folded += '\r\n ';
      octets = 1;
    }
    folded += char;
    octets += size;
  }
  return folded;
}

/** The writer's escape of ":" undone; its other escapes (\\, \, \; \n) kept, read left to right. */
const unescapeColons = (line: string) => line.replace(/\\[\\:]/g, (escape) => (escape === '\\:' ? ':' : escape));

/** The representative's vCard: CRLF line ends, folded by octets (RFC 6350). */
export function representativeVcard(representative: Representative, pageUrl: string): string {
  const name = clean(representative.APT_Company_Name__c) ?? 'Sales representative';
  const street = [representative.APT_Address_1__c, representative.APT_Address_2__c]
    .map(clean)
    .filter((line) => line !== undefined && line !== clean(representative.APT_City__c))
    .join('\n');
  const address = [
    undefined,
    undefined,
    text(street),
    text(representative.APT_City__c),
    text(representative.APT_Primary_State__c),
    text(representative.APT_Zip__c),
    text(representative.APT_UI_Country__c ?? representative.APT_Country__c),
  ];
  const phone = text(representative.APT_Phone__c);
  const email = text(representative.APT_Email__c);
  const properties = [
    new KindProperty([], new SpecialValueType('KindProperty', 'org')),
    new FNProperty([], new TextType(name)),
    new OrgProperty([], new SpecialValueType('OrgProperty', [new TextType(name)])),
    ...(address.some(Boolean)
      ? [new AdrProperty(work('AdrProperty'), new SpecialValueType('AdrProperty', address))]
      : []),
    ...(phone ? [new TelProperty(work('TelProperty', 'voice'), phone)] : []),
    ...(email ? [new EmailProperty(work('EmailProperty'), email)] : []),
    new URLProperty([], new URIType(pageUrl)),
  ];
  const written = new VCARD(properties).repr();
  return (
    written
      .replace(/\r\n /g, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => foldLine(unescapeColons(line)))
      .join('\r\n') + '\r\n'
  );
}
