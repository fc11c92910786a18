import express from 'express';
import request from 'supertest';
import sharp from 'sharp';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { LOGO_WIDTHS, logoSources } from '@aitools/contracts/images';
import { createLogger } from '../middleware/logger';
import { loadLogoMap, logoTileSvg, logoUrlFor } from '../tools/logos';
import { drawnInThread } from './drawing';
import { imagesRouter } from './router';
import type { ImageService } from './service';

const logos = loadLogoMap();
const app = express().use(imagesRouter({ images: {} as ImageService, logos, logger: createLogger('silent') }));
/** Each `srcset` candidate of a logo: its address and width. */
const candidates = (slug: string) =>
  logoSources(logoUrlFor(logos, slug)!)!
    .split(', ')
    .map((c) => c.split(' '))
    .map(([url, w]) => ({ url: url!, width: Number.parseInt(w!, 10) }));

// The first logo also starts the drawing thread and loads libvips: allow for a busy machine.
describe('logos as WebP', { timeout: 20_000 }, () => {
  it('draws each width as a lossless WebP of the SVG tile, cached for a year', async () => {
    const svg = logoTileSvg(logos.get('claude')!);
    for (const { url, width } of candidates('claude')) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toContain('immutable');
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      const { data, info } = await sharp(res.body as Buffer)
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([info.width, info.height, info.channels]).toEqual([width, width, 4]);
      // Lossless: every pixel is resvg's.
      const drawn = new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render();
      expect(Buffer.compare(data, Buffer.from(drawn.pixels))).toBe(0);
    }
    expect(candidates('claude').map((c) => c.width)).toEqual([...LOGO_WIDTHS]);
  });

  it('draws a width once, in a drawing thread, then answers from memory', async () => {
    const [{ url }] = candidates('cursor');
    const before = drawnInThread();
    const first = await request(app).get(url!);
    expect(drawnInThread()).toBe(before + 1);
    const again = await request(app).get(url!);
    expect(drawnInThread()).toBe(before + 1);
    expect(Buffer.compare(again.body as Buffer, first.body as Buffer)).toBe(0);
  });

  it('answers the tile itself without ?w=, and 404 for any other width, format or tool', async () => {
    const [, digest] = /\?v=(\w+)$/.exec(logoUrlFor(logos, 'claude')!)!;
    const plain = await request(app).get(`/logos/claude.webp?v=${digest}`);
    expect((await sharp(plain.body as Buffer).metadata()).width).toBe(48);
    for (const url of [
      `/logos/claude.webp?v=${digest}&w=50`,
      `/logos/claude.webp?w=96&w=48`,
      `/logos/claude.png?v=${digest}&w=96`,
      '/logos/chatgpt.webp?w=96',
      '/logos/..%2Fclaude.webp?w=96',
    ])
      expect((await request(app).get(url)).status, url).toBe(404);
  });
});
