/**
 * Lossless WebP through sharp (libvips and libwebp, prebuilt in its npm packages). A cover's flat colours and
 * anti-aliased type take 20-30% fewer bytes than the palette PNG (docs/performance.md, Phones).
 */
import sharp from 'sharp';

// libvips keeps recent operations and their pixels for reuse; each picture here is encoded once, so that cache
// would only hold memory. One libvips thread per encode: the drawing thread's priority is the work's priority.
sharp.cache(false);
sharp.concurrency(1);

/** RGBA pixels (resvg's) as a lossless WebP. Effort 4 at quality 100 (for lossless, how hard it searches): an 800 px
 *  cover in 7.3 kB and 19 ms here, where effort 6 took 1.2 s for 7.28 kB and the default (quality 80) gave 7.7 kB. */
export function losslessWebp(rgba: Uint8Array | Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .webp({ lossless: true, effort: 4, quality: 100 })
    .toBuffer();
}
