import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { losslessWebp } from './webp';
import { RIFF_WEBP } from '../../test/pictures';

describe('losslessWebp', () => {
  it('writes pixels that decode to exactly the same pixels', async () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 255, 128, 0, 0, 0, 0, 30, 27, 75, 255]);
    const webp = await losslessWebp(rgba, 2, 2);
    expect(RIFF_WEBP(webp)).toBe(true);
    const { data, info } = await sharp(webp).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([2, 2, 4]);
    // Lossless keeps a transparent pixel's colour only as far as it shows: compare what is seen.
    expect([...data.subarray(0, 8)]).toEqual([255, 0, 0, 255, 0, 0, 255, 128]);
    expect(data[11]).toBe(0);
    expect([...data.subarray(12)]).toEqual([30, 27, 75, 255]);
  });
});
