import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderCard, renderCardImage } from './render';
import { losslessWebp } from './webp';

const RIFF_WEBP = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';

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

  it("makes a cover the drawing's pixels in fewer bytes than the palette PNG", { timeout: 20_000 }, async () => {
    const card = {
      title: 'What Is the Model Context Protocol (MCP)?',
      category: 'MCP',
      label: 'Blog',
      size: 'cover' as const,
    };
    const image = await renderCard(card, 800);
    const [webp, png] = await Promise.all([renderCardImage(card, 800, 'webp'), renderCardImage(card, 800)]);
    expect(RIFF_WEBP(webp)).toBe(true);
    const decoded = await sharp(webp).ensureAlpha().raw().toBuffer();
    expect(decoded.equals(image.pixels)).toBe(true);
    expect(webp.length).toBeLessThan(png.length * 0.85);
  });
});
