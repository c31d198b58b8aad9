/**
 * The search results screen's pure parts: whether a term may be searched (the platform wants at least 2
 * characters and at most 255, and answers a shorter term with 400), and getSearchResults' answer made into
 * groups, one per object with matches, each headed by the object's plural label and its count ("25+" when
 * more follow the first page), with the answer's columns labelled from the object's metadata, and each
 * value with the words the answer marks as matches.
 */
import type { components } from '../../../../client/index';
import { displayText, fieldAt } from '../fields';

type SearchAnswer = components['schemas']['SearchResultsSummaryRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

/** The shortest term getSearchResults takes, trimmed. */
export const MIN_SEARCH_TERM_LENGTH = 2;
/** The longest term it takes. */
export const MAX_SEARCH_TERM_LENGTH = 255;

/** Why a term cannot be searched, in words for the user; undefined when it can. */
export function termProblem(term: string): string | undefined {
  const trimmed = term.trim();
  if (trimmed.length < MIN_SEARCH_TERM_LENGTH) return `Enter at least ${MIN_SEARCH_TERM_LENGTH} characters to search.`;
  if (trimmed.length > MAX_SEARCH_TERM_LENGTH) return `Enter at most ${MAX_SEARCH_TERM_LENGTH} characters to search.`;
  return undefined;
}

/** A piece of a value: matched words are marked. */
export interface TextPart {
  text: string;
  marked: boolean;
}

export interface SearchColumn {
  /** The field's API name on the object (unqualified). */
  fieldApiName: string;
  label: string;
}

export interface SearchRow {
  recordId: string;
  /** One cell per column: the value's text in parts, matches marked. */
  cells: TextPart[][];
}

export interface SearchGroup {
  objectApiName: string;
  /** The object's plural label, else its API name. */
  label: string;
  /** How many records the group shows, with a + when more match: "3", "25+". */
  count: string;
  columns: SearchColumn[];
  rows: SearchRow[];
  /** Why the object could not be searched, when the platform says so for this object alone. */
  error?: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of escaped HTML: numeric and the five named character references decoded, nothing else read. */
function unescaped(html: string): string {
  return html.replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * A highlighted value (escaped HTML with `<mark>…</mark>` around the matches) as parts of plain text: no
 * other markup is taken from it, so it is shown as text, never as HTML.
 */
export function markedParts(highlighted: string): TextPart[] {
  const parts: TextPart[] = [];
  const pattern = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (const match of highlighted.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: unescaped(highlighted.slice(last, match.index)), marked: false });
    parts.push({ text: unescaped(match[1]), marked: true });
    last = match.index + match[0].length;
  }
  if (last < highlighted.length) parts.push({ text: unescaped(highlighted.slice(last)), marked: false });
  return parts;
}

/** The objects of an answer that have matches: those whose metadata the screen needs. */
export function objectsWithMatches(answer: SearchAnswer): string[] {
  return answer.keywordSearchResults.results
    .filter((result) => result.records.length > 0 || result.error)
    .map((result) => result.objectApiName);
}

/**
 * The answer's objects with matches, in the answer's order (the search configuration's), each with the
 * columns the answer gives and its records' values. Labels come from the objects' metadata when given.
 */
export function searchGroups(answer: SearchAnswer, objectInfos: Map<string, ObjectInfo> = new Map()): SearchGroup[] {
  const groups: SearchGroup[] = [];
  for (const result of answer.keywordSearchResults.results) {
    if (result.records.length === 0 && !result.error) continue;
    const info = objectInfos.get(result.objectApiName);
    const prefix = `${result.objectApiName}.`;
    const columns = result.fields.map((qualified) => {
      const fieldApiName = qualified.startsWith(prefix) ? qualified.slice(prefix.length) : qualified;
      return { fieldApiName, label: info?.fields[fieldApiName]?.label ?? fieldApiName };
    });
    groups.push({
      objectApiName: result.objectApiName,
      label: info?.labelPlural ?? result.objectApiName,
      count: `${result.records.length}${result.nextPageToken ? '+' : ''}`,
      columns,
      rows: result.records.map(({ record, highlightInfo }) => ({
        recordId: record.id,
        cells: columns.map(({ fieldApiName }) => {
          const highlighted = highlightInfo?.fields[fieldApiName];
          if (highlighted !== undefined) return markedParts(highlighted);
          const text = displayText(fieldAt(record, fieldApiName));
          return text ? [{ text, marked: false }] : [];
        }),
      })),
      ...(result.error && { error: result.error.message }),
    });
  }
  return groups;
}
