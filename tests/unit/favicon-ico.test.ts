import { describe, expect, it } from 'vitest';
import { icoOfPng } from '../../web/build-plugins.ts';

describe('the icon file', () => {
  it('holds the PNG after a header and one entry that give its size, length and place', () => {
    const png = Buffer.from('\x89PNG\r\n\x1a\nrest of the picture', 'latin1');
    const ico = icoOfPng(png, 32);
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(1);
    expect([ico[6], ico[7]]).toEqual([32, 32]);
    expect(ico.readUInt16LE(12)).toBe(32);
    expect(ico.readUInt32LE(14)).toBe(png.length);
    expect(ico.readUInt32LE(18)).toBe(22);
    expect(ico.subarray(22).equals(png)).toBe(true);
    expect(icoOfPng(png, 256)[6]).toBe(0);
  });
});
