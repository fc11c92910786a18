import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { indexedPng } from './indexedPng';
import { PALETTE, colourType, decodeElsewhere } from '../../test/pictures';

describe('indexedPng', () => {
  it('writes a picture of few colours as a palette PNG that decodes to the same pixels', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40"><rect width="64" height="40" fill="#1e1b4b"/><circle cx="20" cy="20" r="13" fill="#4338ca"/><text x="36" y="28" font-size="20" fill="#fff">A</text></svg>`;
    const image = new Resvg(svg).render();
    const png = indexedPng(image.pixels, image.width, image.height)!;
    expect(colourType(png)).toBe(PALETTE);
    expect(Buffer.from(png.subarray(12, 16)).toString()).toBe('IHDR');
    expect(decodeElsewhere(png, 64, 40).equals(image.pixels)).toBe(true);
  });

  it('keeps transparency in the palette', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 255, 128, 0, 0, 0, 0, 255, 0, 0, 255]);
    const png = indexedPng(rgba, 2, 2)!;
    expect(Buffer.from(png).includes('tRNS')).toBe(true);
    expect(Buffer.from(indexedPng(new Uint8Array([1, 2, 3, 255]), 1, 1)!).includes('tRNS')).toBe(false);
  });

  it('declines a picture with more colours than a palette holds', () => {
    const rgba = new Uint8Array(257 * 4);
    for (let i = 0; i < 257; i++) rgba.set([i & 0xff, i >> 8, 0, 255], i * 4);
    expect(indexedPng(rgba, 257, 1)).toBeNull();
    expect(indexedPng(rgba.subarray(0, 256 * 4), 256, 1)).not.toBeNull();
  });

  it('reads pixels from an unaligned buffer', () => {
    const backing = new Uint8Array(1 + 4 * 4);
    backing.set([9, 9, 9, 255, 9, 9, 9, 255, 1, 1, 1, 255, 9, 9, 9, 255], 1);
    const png = indexedPng(backing.subarray(1), 2, 2)!;
    expect(decodeElsewhere(png, 2, 2).equals(Buffer.from(backing.subarray(1)))).toBe(true);
  });
});
