import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { etagOf, etagsOfTree, jsonOf, jsonOfTree, withEtagFirst } from '../../server/platform/core/etag.ts';

describe('jsonOfTree', () => {
  it('is JSON.stringify of maps of representations, in the same key order, leaving out undefined entries', () => {
    const leaf = { b: 1, a: 'x"\u2028', list: [1, null, { c: true }], none: undefined };
    const tree = { 'z"key': { B: leaf, A: { x: 'y' } }, a: { b: leaf }, gone: undefined, '10': { '2': leaf } };
    expect(jsonOfTree(tree, 2)).toBe(JSON.stringify(tree));
    expect(jsonOfTree({}, 1)).toBe('{}');
    expect(jsonOfTree(leaf, 0)).toBe(JSON.stringify(leaf));
  });

  it("uses a leaf's kept serialization: a leaf is serialized once for as long as it lives", () => {
    const leaf = { value: 1 };
    expect(jsonOf(leaf)).toBe('{"value":1}');
    // Kept representations must not change; one that did shows it was not serialized again.
    leaf.value = 2;
    expect(jsonOfTree({ one: leaf }, 1)).toBe('{"one":{"value":1}}');
  });
});

describe('withEtagFirst', () => {
  it('puts the md5 eTag of the rest first, and keeps that serialization as its JSON', () => {
    const body = { b: [1, 2], a: { c: 'd' } };
    const text = JSON.stringify(body);
    const representation = withEtagFirst(body);
    expect(representation.eTag).toBe(createHash('md5').update(text).digest('hex'));
    expect(representation.eTag).toBe(etagOf(body));
    expect(jsonOf(representation)).toBe(JSON.stringify(representation));
    expect(Object.keys(representation)[0]).toBe('eTag');
    // The text given is the one hashed and answered.
    const given = withEtagFirst(body, text);
    expect(given.eTag).toBe(representation.eTag);
    expect(jsonOf(given)).toBe(JSON.stringify(given));
    expect(jsonOf(withEtagFirst({}))).toBe(`{"eTag":"${etagOf({})}"}`);
  });
});

describe('etagsOfTree', () => {
  it('gives the eTags of the leaves in the same maps, leaving out undefined entries', () => {
    const leaf = (eTag: string) => ({ eTag, label: `label of ${eTag}` });
    const tree = { Account: { '012': { Full: { View: leaf('a'), Edit: leaf('b') } } }, Contact: undefined };
    expect(etagsOfTree(tree, 4)).toEqual({ Account: { '012': { Full: { View: 'a', Edit: 'b' } } } });
    expect(etagsOfTree({ x: leaf('c') }, 1)).toEqual({ x: 'c' });
  });

  it('with withEtagFirst, gives a representation made of parts an eTag that changes when a part does', () => {
    const parts = (label: string) => ({ objectInfos: { Account: { eTag: etagOf({ label }), label } } });
    const etagOfParts = (body: ReturnType<typeof parts>) => etagOf({ objectInfos: etagsOfTree(body.objectInfos, 1) });
    const before = withEtagFirst(parts('Account'), undefined, etagOfParts(parts('Account')));
    const same = withEtagFirst(parts('Account'), undefined, etagOfParts(parts('Account')));
    const changed = withEtagFirst(parts('Accounts'), undefined, etagOfParts(parts('Accounts')));
    expect(same.eTag).toBe(before.eTag);
    expect(changed.eTag).not.toBe(before.eTag);
    expect(jsonOf(before)).toBe(JSON.stringify(before));
  });
});
