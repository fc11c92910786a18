/**
 * Lossless WebP through sharp (libvips and libwebp, prebuilt in its npm packages). A cover's flat colours and
 * anti-aliased type take 20-30% fewer bytes than the palette PNG (docs/performance.md, Phones).
 *
 * libvips encodes in threads of its own, shared by the whole process, which run at the priority of the thread that
 * started them. So only the visitor's drawing thread encodes WebP (drawCard in drawing.ts), and sharp is loaded on first
 * use: the warm-up's lowest-priority thread never starts a libvips thread that a visitor's picture would then wait on.
 */
import type { Sharp, SharpOptions } from 'sharp';

let encoder: Promise<(input: Uint8Array, options: SharpOptions) => Sharp> | null = null;

function load() {
  return (encoder ??= import('sharp').then(({ default: sharp }) => {
    // libvips keeps recent operations and their pixels for reuse; each picture here is encoded once, so that cache
    // would only hold memory. One libvips thread per encode.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));
}

/** Whether this thread has loaded the encoder (how the tests see which drawing thread encodes). */
export const encoderLoaded = (): boolean => encoder !== null;

/** RGBA pixels (resvg's) as a lossless WebP. Effort 4 at quality 100 (for lossless, how hard it searches): an 800 px
 *  cover in 7.3 kB and 19 ms here, where effort 6 took 1.2 s for 7.28 kB and the default (quality 80) gave 7.7 kB. */
export async function losslessWebp(rgba: Uint8Array | Buffer, width: number, height: number): Promise<Buffer> {
  const sharp = await load();
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .webp({ lossless: true, effort: 4, quality: 100 })
    .toBuffer();
}
