/** Reading the pictures the server draws (src/images), for its tests. */
import { Resvg } from '@resvg/resvg-js';

/** The RGBA pixels of a PNG as another decoder reads it: resvg's own (Rust's png crate), through an <image>. */
export function decodeElsewhere(png: Uint8Array, width: number, height: number): Buffer {
  const href = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image href="${href}" width="${width}" height="${height}" image-rendering="pixelated"/></svg>`;
  return new Resvg(svg).render().pixels;
}

/** A PNG's colour type (IHDR), and the one of a palette PNG. */
export const colourType = (png: Uint8Array) => png[25];
export const PALETTE = 3;

/** Whether the bytes are a WebP file (a RIFF container of type WEBP). */
export const RIFF_WEBP = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 4)).toString() === 'RIFF' && Buffer.from(bytes.subarray(8, 12)).toString() === 'WEBP';
