import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderCard, renderCardImage } from './render';
import { PALETTE, RIFF_WEBP, colourType, decodeElsewhere } from '../../test/pictures';

describe('renderCardImage', () => {
  it(
    "draws a cover as a palette PNG under half the renderer's own PNG, and as a smaller lossless WebP, both the drawing's pixels",
    { timeout: 20_000 },
    async () => {
      const card = {
        title: 'What Is the Model Context Protocol (MCP)?',
        category: 'MCP',
        label: 'Blog',
        size: 'cover' as const,
      };
      const image = await renderCard(card, 800);
      const [png, webp] = await Promise.all([renderCardImage(card, 800), renderCardImage(card, 800, 'webp')]);
      expect(colourType(png)).toBe(PALETTE);
      expect(decodeElsewhere(png, 800, 450).equals(image.pixels)).toBe(true);
      expect(png.length).toBeLessThan(image.asPng().length / 2);
      expect(RIFF_WEBP(webp)).toBe(true);
      expect((await sharp(webp).ensureAlpha().raw().toBuffer()).equals(image.pixels)).toBe(true);
      expect(webp.length).toBeLessThan(png.length * 0.85);
    },
  );
});
