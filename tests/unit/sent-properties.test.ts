/** The comparison of what the server's answers carry with the contract and the baseline (tests/support/sent-properties.ts). */
import { describe, expect, it } from 'vitest';
import {
  aggregate,
  alwaysSent,
  baselineOf,
  compare,
  componentOf,
  contractFiles,
  filesNotRun,
  observeAnswer,
  parseRecording,
  platformAlwaysSent,
  schemaName,
  type CompareOptions,
  type RecordingLine,
} from '../support/sent-properties.ts';

const object = (properties: Record<string, unknown>, required?: string[]) => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});

const doc = {
  paths: {
    '/records/{id}': {
      get: {
        operationId: 'getThing',
        responses: {
          '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '400': {
            content: { 'application/json': { schema: object({ message: {}, hint: {} }, ['message']) } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: object(
        {
          id: {},
          name: {},
          child: { $ref: '#/components/schemas/Child' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Child' } },
          byKey: { type: 'object', additionalProperties: object({ value: {} }) },
          shape: { oneOf: [{ $ref: '#/components/schemas/Circle' }, { $ref: '#/components/schemas/Square' }] },
          maybe: { anyOf: [{ $ref: '#/components/schemas/Child' }, { type: 'null' }] },
        },
        ['id'],
      ),
      Child: object({ a: {}, b: {} }),
      Base: object({ kind: {} }, ['kind']),
      Circle: { allOf: [{ $ref: '#/components/schemas/Base' }, object({ radius: {} })] },
      Square: { allOf: [{ $ref: '#/components/schemas/Base' }, object({ side: {} })] },
    },
  },
};

/** Stands for the validator: a branch of shape matches by kind, the null branch null, the others objects. */
function matches(pointer: string, value: unknown): boolean {
  const kind = (value as { kind?: string } | null)?.kind;
  if (pointer.endsWith('/shape/oneOf/0')) return kind === 'circle';
  if (pointer.endsWith('/shape/oneOf/1')) return kind === 'square';
  if (pointer.endsWith('/maybe/anyOf/1')) return value === null;
  return !!value && typeof value === 'object';
}

const THING = '#/components/schemas/Thing';
const CHILD = '#/components/schemas/Child';
const observe = (body: unknown, pointer = THING) => observeAnswer(doc, pointer, body, matches);
const answer = (body: unknown, status = 200, operationId = 'getThing'): RecordingLine => ({
  kind: 'answer',
  file: 'tests/contract/things.test.ts',
  operationId,
  status,
  objects: observe(body),
});

describe('observeAnswer', () => {
  it('counts the objects of each schema and the declared properties they carry, through refs, items and maps', () => {
    const objects = observe({
      id: '1',
      child: { a: 1 },
      children: [{ a: 1, b: 2 }, { b: 3 }],
      byKey: { x: { value: 1 }, y: {} },
      undeclared: { a: 1 },
    });
    expect(objects[THING]).toEqual({
      objects: 1,
      present: { id: 1, name: 0, child: 1, children: 1, byKey: 1, shape: 0, maybe: 0 },
    });
    expect(objects[CHILD]).toEqual({ objects: 3, present: { a: 2, b: 2 } });
    expect(objects[`${THING}/properties/byKey/additionalProperties`]).toEqual({ objects: 2, present: { value: 1 } });
    // The map itself declares no property; an undeclared property is not walked.
    expect(Object.keys(objects).sort()).toEqual(
      [THING, CHILD, `${THING}/properties/byKey/additionalProperties`].sort(),
    );
  });

  it('follows only the oneOf and anyOf branches the value matches, and every allOf part', () => {
    const objects = observe({ id: '1', shape: { kind: 'square', side: 2 }, maybe: null });
    expect(objects['#/components/schemas/Square/allOf/1']).toEqual({ objects: 1, present: { side: 1 } });
    expect(objects['#/components/schemas/Base']).toEqual({ objects: 1, present: { kind: 1 } });
    expect(objects['#/components/schemas/Circle/allOf/1']).toBeUndefined();
    expect(objects[CHILD]).toBeUndefined();
  });

  it('starts at a schema written inline in an operation', () => {
    const pointer = '#/paths/~1records~1{id}/get/responses/400/content/application~1json/schema';
    expect(observe({ message: 'no' }, pointer)).toEqual({
      [pointer]: { objects: 1, present: { message: 1, hint: 0 } },
    });
  });
});

describe('names of schemas', () => {
  it('names a component by its pointer less the components prefix, an inline schema by its operation and status', () => {
    expect(schemaName(doc, THING)).toBe('Thing');
    expect(schemaName(doc, `${THING}/properties/byKey/additionalProperties`)).toBe(
      'Thing/properties/byKey/additionalProperties',
    );
    expect(
      schemaName(doc, '#/paths/~1records~1{id}/get/responses/400/content/application~1json/schema/properties/x'),
    ).toBe('getThing 400/properties/x');
  });

  it('places a schema in its component, past the combinators that keep the object the same', () => {
    expect(componentOf('#/components/schemas/Square/allOf/1')).toEqual({ component: 'Square', at: '' });
    expect(componentOf(`${THING}/properties/byKey/additionalProperties`)).toEqual({
      component: 'Thing',
      at: '/properties/byKey/additionalProperties',
    });
    expect(componentOf('#/paths/~1x/get/responses/200/content/application~1json/schema')).toBeUndefined();
  });
});

describe('aggregate, alwaysSent and baselineOf', () => {
  const lines = [answer({ id: '1', name: 'a' }), answer({ id: '2', name: 'b' }), answer({ id: '3' }, 201)];

  it('adds the answers up by schema, and by operation and status inside each', () => {
    const thing = aggregate(lines).get(THING)!;
    expect(thing).toMatchObject({ answers: 3, objects: 3, present: { id: 3, name: 2 } });
    expect(thing.contexts['getThing 200']).toMatchObject({ answers: 2, objects: 2, present: { id: 2, name: 2 } });
    expect(thing.contexts['getThing 201']).toMatchObject({ answers: 1, present: { id: 1, name: 0 } });
    expect(alwaysSent(doc, THING, thing)).toEqual(['id']);
    expect(alwaysSent(doc, THING, { objects: 0, present: {} })).toEqual([]);
  });

  it('keeps, in the baseline, the schemas seen in enough answers, with what they always carried', () => {
    const observed = aggregate([...lines, answer({ id: '4', child: { a: 1 } })]);
    expect(baselineOf(doc, observed, 2)).toEqual({ Thing: ['id'] });
    expect(baselineOf(doc, observed, 1)).toEqual({ Child: ['a'], Thing: ['id'] });
  });
});

describe('compare', () => {
  const options = (overrides: Partial<CompareOptions> = {}): CompareOptions => ({
    baseline: {},
    minAnswers: 2,
    allowed: {},
    platformAlwaysSent: () => undefined,
    ...overrides,
  });
  const observed = (...bodies: unknown[]) => aggregate(bodies.map((body) => answer(body)));

  it('fails a required property that some answer lacks, saying where', () => {
    const findings = compare(doc, aggregate([answer({ id: '1' }), answer({ name: 'x' }, 201)]), options());
    expect(findings.requiredMissing).toEqual(['Thing.id is required but absent (getThing 201: 1 of 1)']);
  });

  it('reports an optional property every answer carried, over enough answers only', () => {
    expect(compare(doc, observed({ id: '1', name: 'a' }), options()).optionalAlwaysSent).toEqual([]);
    expect(
      compare(doc, observed({ id: '1', name: 'a' }, { id: '2', name: 'b' }), options()).optionalAlwaysSent,
    ).toEqual(['Thing.name is optional and always sent (2 answers, 2 objects)']);
  });

  it('lets the allow-list and the platform reference decide', () => {
    const twice = observed({ id: '1', name: 'a' }, { id: '2', name: 'b' });
    const allowed = compare(doc, twice, options({ allowed: { 'Thing.name': 'not always on the platform' } }));
    expect(allowed.optionalAlwaysSent).toEqual([]);
    expect(allowed.staleAllowed).toEqual([]);
    // The reference lists the representation without the property: optional by the rule, nothing to report.
    const optionalOnPlatform = compare(doc, twice, options({ platformAlwaysSent: () => new Set(['id']) }));
    expect(optionalOnPlatform.optionalAlwaysSent).toEqual([]);
    expect(optionalOnPlatform.requiredByPlatform).toEqual([]);
    // The reference says the platform always sends it: it must be required.
    const always = compare(doc, twice, options({ platformAlwaysSent: () => new Set(['id', 'name']) }));
    expect(always.requiredByPlatform).toEqual([
      'Thing.name is always sent (2 answers, 2 objects) and the platform always sends it',
    ]);
  });

  it('notices a property the baseline says was always sent and some answer lacks, required or not', () => {
    const findings = compare(
      doc,
      observed({ id: '1', name: 'a' }, { id: '2' }),
      options({ baseline: { Thing: ['id', 'name'] } }),
    );
    expect(findings.stoppedSending).toEqual(['Thing.name was always sent and now is not (getThing 200: 1 of 2)']);
    expect(
      compare(
        doc,
        observed({ id: '1', name: 'a' }, { id: '2', name: 'b' }),
        options({ baseline: { Thing: ['id', 'name'] } }),
      ).stoppedSending,
    ).toEqual([]);
  });

  it('notes, without failing, what the baseline could take in and baseline schemas no answer had', () => {
    const findings = compare(
      doc,
      observed({ id: '1', name: 'a' }, { id: '2', name: 'b' }),
      options({ baseline: { Thing: ['id'], Gone: ['x'] }, allowed: { 'Thing.name': 'reason' } }),
    );
    expect(findings.notes).toEqual([
      'Gone is in the baseline and no answer had it',
      'Thing.name is now always sent (2 answers) and not in the baseline',
    ]);
    expect(findings.stoppedSending).toEqual([]);
  });

  it('finds stale allow-list entries where their schema was seen often enough', () => {
    const findings = compare(
      doc,
      observed({ id: '1' }, { id: '2', name: 'b' }),
      options({ allowed: { 'Thing.name': 'reason', 'Thing.id': 'reason', 'Child.a': 'reason' } }),
    );
    expect(findings.staleAllowed).toEqual(['Thing.id', 'Thing.name']);
    expect(findings.notes).toEqual(['Child.a is allowed, and too few answers had its schema to judge it']);
  });
});

describe('the recording', () => {
  it('tells the contract files that did not run, the comparison itself aside', () => {
    const expected = contractFiles(['b.test.ts', 'a.test.ts', 'sent-properties.test.ts', 'sent-properties.json']);
    expect(expected).toEqual(['tests/contract/a.test.ts', 'tests/contract/b.test.ts']);
    const lines: RecordingLine[] = [answer({ id: '1' }), { kind: 'file', file: 'tests/contract/a.test.ts' }];
    expect(filesNotRun(lines, expected)).toEqual(['tests/contract/b.test.ts']);
  });

  it('reads JSON lines, leaving out a torn last line', () => {
    const text = `${JSON.stringify({ kind: 'file', file: 'x' })}\n\n{"kind":"answ`;
    expect(parseRecording(text)).toEqual([{ kind: 'file', file: 'x' }]);
  });
});

describe('platformAlwaysSent', () => {
  it('takes a base type fields in and the optional ones out', () => {
    const representations = {
      Base: { fields: ['apiName', 'componentType'] },
      Field: { fields: ['label', 'extra'], optional: ['extra'], inherits: 'Base' },
    };
    expect(platformAlwaysSent(representations, 'Field')).toEqual(new Set(['label', 'apiName', 'componentType']));
    expect(platformAlwaysSent(representations, 'Unknown')).toBeUndefined();
  });
});
