/**
 * srcset validation (docs/product-spec.md §5): a srcset is kept only entry by entry, each entry a valid
 * image URL with an optional width (480w) or pixel-density (2x, 1.5x) descriptor. A bad entry is skipped
 * with a console warning. Candidates are split as the HTML standard does: a URL is a run of non-spaces
 * (so that data: URLs may hold commas), and trailing commas end the candidate.
 */
import { safeImageUrl } from './links';

export interface SrcsetCandidate {
  url: string;
  /** '480w', '2x' or '' when the entry has no descriptor (1x). */
  descriptor: string;
}

const WIDTH = /^[1-9]\d*w$/;
const DENSITY = /^(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?x$/i;

function validDescriptor(descriptor: string): boolean {
  if (descriptor === '') return true;
  if (WIDTH.test(descriptor)) return true;
  return DENSITY.test(descriptor) && Number.parseFloat(descriptor) > 0;
}

/** Splits a srcset into its raw entries: [url, descriptors text]. */
function splitCandidates(srcset: string): [string, string][] {
  const entries: [string, string][] = [];
  let position = 0;
  const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
  while (position < srcset.length) {
    while (position < srcset.length && (isSpace(srcset[position]) || srcset[position] === ',')) position++;
    if (position >= srcset.length) break;
    let end = position;
    while (end < srcset.length && !isSpace(srcset[end])) end++;
    let url = srcset.slice(position, end);
    position = end;
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
      entries.push([url, '']);
      continue;
    }
    // Descriptors run to the next comma that is not inside parentheses.
    let depth = 0;
    let descriptorEnd = position;
    while (descriptorEnd < srcset.length) {
      const char = srcset[descriptorEnd];
      if (char === '(') depth++;
      else if (char === ')') depth = Math.max(0, depth - 1);
      else if (char === ',' && depth === 0) break;
      descriptorEnd++;
    }
    entries.push([url, srcset.slice(position, descriptorEnd).trim()]);
    position = descriptorEnd + 1;
  }
  return entries;
}

export function parseSrcset(
  srcset: string | null | undefined,
  warn: (message: string) => void = (message) => console.warn(message),
): SrcsetCandidate[] {
  if (typeof srcset !== 'string') return [];
  const candidates: SrcsetCandidate[] = [];
  for (const [rawUrl, rawDescriptor] of splitCandidates(srcset)) {
    const url = safeImageUrl(rawUrl);
    const descriptor = rawDescriptor.toLowerCase();
    if (!url || /\s/.test(descriptor) || !validDescriptor(descriptor)) {
      warn(`Skipped an invalid srcset entry: "${`${rawUrl} ${rawDescriptor}`.trim()}"`);
      continue;
    }
    candidates.push({ url, descriptor });
  }
  return candidates;
}

/**
 * What sanitizeSrcset made of each srcset it met with the console's warnings: a picture shows the same few
 * srcsets at every render (the server renders every page with the banner's), so each is read once, and a bad
 * entry warned of once.
 */
const sanitized = new Map<string, string>();

/** The valid entries of a srcset as a srcset string again ('' when none is valid). */
export function sanitizeSrcset(srcset: string | null | undefined, warn?: (message: string) => void): string {
  const kept = warn === undefined && typeof srcset === 'string' ? sanitized.get(srcset) : undefined;
  if (kept !== undefined) return kept;
  const text = parseSrcset(srcset, warn)
    .map(({ url, descriptor }) => (descriptor ? `${url} ${descriptor}` : url))
    .join(', ');
  if (warn === undefined && typeof srcset === 'string') {
    if (sanitized.size >= 64) sanitized.clear();
    sanitized.set(srcset, text);
  }
  return text;
}
