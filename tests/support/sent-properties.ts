/**
 * Required means always sent, both ways: which declared properties the server's JSON answers carry, per
 * object schema of the contract, compared with the schema's `required` list and with a checked-in baseline of
 * what the server always sent (tests/contract/sent-properties.json).
 *
 * Pure functions over the bundled contract and plain data: the recording (tests/support/api-calls.ts) and
 * the comparison (tests/contract/sent-properties.test.ts, scripts/sent-properties.ts) stand on them.
 *
 * An object schema is a node of the bundle with `properties` or `required`, known by its JSON pointer
 * (#/components/schemas/RecordRepresentation, .../properties/fields/additionalProperties) and shown by a
 * shorter name: the pointer less `#/components/schemas/`, or `<operationId> <status>` for a schema written
 * inline in an operation's response.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** How often the objects of one schema carried each declared property. */
export interface PropertyCounts {
  /** The objects of the schema seen. */
  objects: number;
  /** Declared property → the number of those objects that carried it. */
  present: Record<string, number>;
}

/** One answer's objects, by the pointer of their schema. */
export type AnswerObjects = Record<string, PropertyCounts>;

/** One line of the recording: an answer, or the mark that a test file ran. */
export type RecordingLine =
  | { kind: 'answer'; file: string; operationId: string; status: number; objects: AnswerObjects }
  | { kind: 'file'; file: string };

/** What the recording holds about one schema, in all and by operation and status (`getRecord 200`). */
export interface SchemaObservation extends PropertyCounts {
  /** The answers that had at least one object of the schema. */
  answers: number;
  contexts: Record<string, PropertyCounts & { answers: number }>;
}

/** The baseline: schema name → the declared properties every answer carried. */
export type Baseline = Record<string, string[]>;

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

export function nodeAt(doc: Json, pointer: string): Json {
  if (!pointer.startsWith('#/')) throw new Error(`Only local pointers are supported: ${pointer}`);
  let node: unknown = doc;
  for (const segment of pointer.slice(2).split('/').map(unescapePointer)) {
    node = isObject(node) || Array.isArray(node) ? (node as Json)[segment] : undefined;
    if (node === undefined) throw new Error(`Unresolvable pointer ${pointer}`);
  }
  return node as Json;
}

/** The properties a schema node declares: its `properties` and its `required` (which may stand alone). */
export function declaredProperties(node: Json): { declared: string[]; required: string[] } {
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  const declared = [...new Set([...Object.keys(isObject(node.properties) ? node.properties : {}), ...required])];
  return { declared, required };
}

/**
 * Walks an answer along its schema and counts, for every object schema it meets, the objects and the
 * declared properties they carry. `matches` says whether a value validates against the schema at a pointer:
 * it picks the branches of oneOf and anyOf the value takes.
 */
export function observeAnswer(
  doc: Json,
  schemaPointer: string,
  body: unknown,
  matches: (pointer: string, value: unknown) => boolean,
): AnswerObjects {
  const objects: AnswerObjects = {};
  const walk = (value: unknown, pointer: string, depth: number) => {
    if (depth > 200) throw new Error(`Schema nesting too deep at ${pointer}`);
    const node = nodeAt(doc, pointer);
    if (typeof node.$ref === 'string') walk(value, node.$ref, depth + 1);
    if (isObject(value)) {
      const { declared } = declaredProperties(node);
      if (declared.length > 0) {
        const counts = (objects[pointer] ??= { objects: 0, present: {} });
        counts.objects++;
        for (const name of declared) {
          counts.present[name] ??= 0;
          if (Object.hasOwn(value, name)) counts.present[name]++;
        }
      }
      const properties = isObject(node.properties) ? node.properties : {};
      for (const [name, item] of Object.entries(value)) {
        if (Object.hasOwn(properties, name)) walk(item, `${pointer}/properties/${escapePointer(name)}`, depth + 1);
        else if (isObject(node.additionalProperties)) walk(item, `${pointer}/additionalProperties`, depth + 1);
      }
    }
    if (Array.isArray(value) && isObject(node.items))
      for (const item of value) walk(item, `${pointer}/items`, depth + 1);
    for (const [index] of ((node.allOf as unknown[] | undefined) ?? []).entries())
      walk(value, `${pointer}/allOf/${index}`, depth + 1);
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      for (const [index] of ((node[keyword] as unknown[] | undefined) ?? []).entries()) {
        const branch = `${pointer}/${keyword}/${index}`;
        if (matches(branch, value)) walk(value, branch, depth + 1);
      }
    }
  };
  walk(body, schemaPointer, 0);
  return objects;
}

const addCounts = (into: PropertyCounts, from: PropertyCounts) => {
  into.objects += from.objects;
  for (const [name, count] of Object.entries(from.present)) into.present[name] = (into.present[name] ?? 0) + count;
};

/** Adds up the answers of a recording by schema pointer, and by operation and status inside each. */
export function aggregate(lines: Iterable<RecordingLine>): Map<string, SchemaObservation> {
  const observed = new Map<string, SchemaObservation>();
  for (const line of lines) {
    if (line.kind !== 'answer') continue;
    const context = `${line.operationId} ${line.status}`;
    for (const [pointer, counts] of Object.entries(line.objects)) {
      let schema = observed.get(pointer);
      if (!schema) observed.set(pointer, (schema = { answers: 0, objects: 0, present: {}, contexts: {} }));
      schema.answers++;
      addCounts(schema, counts);
      const byContext = (schema.contexts[context] ??= { answers: 0, objects: 0, present: {} });
      byContext.answers++;
      addCounts(byContext, counts);
    }
  }
  return observed;
}

/** The short name of a schema's pointer: `RecordRepresentation/properties/fields/additionalProperties`, `createRecord 400/oneOf/0`. */
export function schemaName(doc: Json, pointer: string): string {
  const component = /^#\/components\/schemas\/(.*)$/.exec(pointer);
  if (component) return component[1];
  const inline = /^#\/paths\/([^/]+)\/([a-z]+)\/responses\/([^/]+)\/content\/[^/]+\/schema(.*)$/.exec(pointer);
  if (inline) {
    const operation = nodeAt(doc, `#/paths/${inline[1]}/${inline[2]}`);
    return `${String(operation.operationId)} ${inline[3]}${inline[4]}`;
  }
  return pointer;
}

/**
 * The component a schema belongs to and where it is inside it, without the combinator steps that do not
 * change the object (allOf/1 of a subtype is the subtype itself): `{component: 'X', at: ''}` for X's own
 * properties. Undefined for a schema written inline in an operation.
 */
export function componentOf(pointer: string): { component: string; at: string } | undefined {
  const match = /^#\/components\/schemas\/([^/]+)(.*)$/.exec(pointer);
  if (!match) return undefined;
  return { component: unescapePointer(match[1]), at: match[2].replace(/\/(?:allOf|anyOf|oneOf)\/\d+/g, '') };
}

/** The declared properties every object of a schema carried. */
export function alwaysSent(doc: Json, pointer: string, counts: PropertyCounts): string[] {
  return declaredProperties(nodeAt(doc, pointer))
    .declared.filter((name) => counts.objects > 0 && counts.present[name] === counts.objects)
    .sort();
}

/** The baseline a recording makes: for each schema seen in at least minAnswers answers, what it always carried. */
export function baselineOf(doc: Json, observed: Map<string, SchemaObservation>, minAnswers: number): Baseline {
  const entries = [...observed]
    .filter(([, schema]) => schema.answers >= minAnswers)
    .map(([pointer, schema]) => [schemaName(doc, pointer), alwaysSent(doc, pointer, schema)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

export interface CompareOptions {
  baseline: Baseline;
  /** A schema is judged "always sends" only over at least this many answers. */
  minAnswers: number;
  /** `<schema name>.<property>` → why the property stays optional although the server always sends it. */
  allowed: Record<string, string>;
  /**
   * The properties the platform always sends in a representation (the reference's field lists), by
   * component name; undefined for a representation the reference does not describe.
   */
  platformAlwaysSent: (component: string) => ReadonlySet<string> | undefined;
}

export interface Findings {
  /** Required properties some answer lacked, with where: these break the contract. */
  requiredMissing: string[];
  /** Optional properties every answer carried, where the platform reference says the platform always sends them: make them required. */
  requiredByPlatform: string[];
  /** Optional properties every answer carried that neither the reference nor the allow-list account for. */
  optionalAlwaysSent: string[];
  /** Properties the baseline says were always sent, that some answer now lacks. */
  stoppedSending: string[];
  /** Allow-list entries that no longer name an optional property always sent. */
  staleAllowed: string[];
  /** Not failures: properties now always sent that the baseline lacks, and baseline schemas not seen. */
  notes: string[];
}

/** Where objects of a schema lacked a property: the first few operations and statuses, with how many. */
function lacking(schema: SchemaObservation, property: string): string {
  const where = Object.entries(schema.contexts)
    .filter(([, counts]) => (counts.present[property] ?? 0) < counts.objects)
    .map(([context, counts]) => `${context}: ${counts.objects - (counts.present[property] ?? 0)} of ${counts.objects}`);
  return where.length > 5 ? `${where.slice(0, 5).join('; ')}; and ${where.length - 5} more` : where.join('; ');
}

/** Compares what the answers carried with the contract's required lists, the platform reference and the baseline. */
export function compare(doc: Json, observed: Map<string, SchemaObservation>, options: CompareOptions): Findings {
  const findings: Findings = {
    requiredMissing: [],
    requiredByPlatform: [],
    optionalAlwaysSent: [],
    stoppedSending: [],
    staleAllowed: [],
    notes: [],
  };
  const optionalAlwaysSentKeys = new Set<string>();
  const seenNames = new Set<string>();
  const judged = new Set<string>();
  for (const [pointer, schema] of observed) {
    const name = schemaName(doc, pointer);
    seenNames.add(name);
    if (schema.answers >= options.minAnswers) judged.add(name);
    const { declared, required } = declaredProperties(nodeAt(doc, pointer));
    const always = new Set(alwaysSent(doc, pointer, schema));
    for (const property of required) {
      if (!always.has(property))
        findings.requiredMissing.push(`${name}.${property} is required but absent (${lacking(schema, property)})`);
    }
    const baseline = options.baseline[name];
    for (const property of declared) {
      const key = `${name}.${property}`;
      if (baseline?.includes(property) && !always.has(property))
        findings.stoppedSending.push(`${key} was always sent and now is not (${lacking(schema, property)})`);
      if (baseline && !baseline.includes(property) && always.has(property) && schema.answers >= options.minAnswers)
        findings.notes.push(`${key} is now always sent (${schema.answers} answers) and not in the baseline`);
      if (required.includes(property) || !always.has(property) || schema.answers < options.minAnswers) continue;
      optionalAlwaysSentKeys.add(key);
      if (options.allowed[key]) continue;
      const place = componentOf(pointer);
      const platform = place && place.at === '' ? options.platformAlwaysSent(place.component) : undefined;
      const seen = `${schema.answers} answers, ${schema.objects} objects`;
      if (platform?.has(property))
        findings.requiredByPlatform.push(`${key} is always sent (${seen}) and the platform always sends it`);
      // The reference lists the representation and leaves the property out or optional: optional by the rule.
      else if (!platform) findings.optionalAlwaysSent.push(`${key} is optional and always sent (${seen})`);
    }
  }
  // An entry is stale where its schema was seen often enough and the property is not optional and always sent.
  for (const key of Object.keys(options.allowed)) {
    if (optionalAlwaysSentKeys.has(key)) continue;
    if (judged.has(key.slice(0, key.lastIndexOf('.')))) findings.staleAllowed.push(key);
    else findings.notes.push(`${key} is allowed, and too few answers had its schema to judge it`);
  }
  for (const name of Object.keys(options.baseline))
    if (!seenNames.has(name)) findings.notes.push(`${name} is in the baseline and no answer had it`);
  for (const list of Object.values(findings)) list.sort();
  return findings;
}

/** The files of the expected set that did not run (no `file` line in the recording). */
export function filesNotRun(lines: Iterable<RecordingLine>, expected: Iterable<string>): string[] {
  const ran = new Set<string>();
  for (const line of lines) if (line.kind === 'file') ran.add(line.file);
  return [...expected].filter((file) => !ran.has(file)).sort();
}

/** Parses a recording (JSON lines); a torn last line (a run cut short) is left out. */
export function parseRecording(text: string): RecordingLine[] {
  const lines: RecordingLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      lines.push(JSON.parse(line) as RecordingLine);
    } catch {
      continue;
    }
  }
  return lines;
}

/** A representation of the platform reference's v55 field lists (tests/support/uiapi-v55-fields.json). */
export interface PlatformRepresentation {
  fields: string[];
  optional?: string[];
  inherits?: string;
}

/** The fields the platform always sends in a representation: its own and its base type's, less the optional ones. */
export function platformAlwaysSent(
  representations: Record<string, PlatformRepresentation>,
  name: string,
): Set<string> | undefined {
  const representation = representations[name];
  if (!representation) return undefined;
  const fields = new Set(representation.fields.filter((field) => !representation.optional?.includes(field)));
  if (representation.inherits)
    for (const field of platformAlwaysSent(representations, representation.inherits) ?? []) fields.add(field);
  return fields;
}

/** A schema is judged on what the server always sends only over this many answers at least. */
export const MIN_ANSWERS = 3;

/** The contract files whose answers the recording must hold: every tests/contract/*.test.ts but the comparison. */
export const contractFiles = (names: string[]) =>
  names
    .filter((name) => name.endsWith('.test.ts') && name !== 'sent-properties.test.ts')
    .map((name) => `tests/contract/${name}`)
    .sort();
