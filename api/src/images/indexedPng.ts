import { encode } from 'fast-png';

/** A PNG palette holds at most this many colours. */
const PALETTE_MAX = 256;

/**
 * The picture as an indexed (palette) PNG, losslessly, or null when it has more colours than a palette holds.
 * The generated cards are flat colours and anti-aliased type (about 130 colours): as 8-bit indices deflated at
 * level 9 they weigh 10.5 kB at 800 px instead of the 24 kB of the renderer's RGBA PNG (docs/performance.md, Phones).
 */
export function indexedPng(rgba: Uint8Array, width: number, height: number): Uint8Array | null {
  // A view of four bytes per pixel needs an aligned start (a pooled Buffer may not have one).
  const bytes = rgba.byteOffset % 4 === 0 ? rgba : new Uint8Array(rgba);
  const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, width * height);
  const indices = new Uint8Array(width * height);
  const slots = new Map<number, number>();
  const palette: number[][] = [];
  let opaque = true;
  let last = -1;
  let lastSlot = 0;
  for (let i = 0; i < pixels.length; i++) {
    const pixel = pixels[i]!;
    // Runs of one colour are most of a card: skip the lookup while the colour stays.
    if (pixel !== last) {
      let slot = slots.get(pixel);
      if (slot === undefined) {
        if (palette.length === PALETTE_MAX) return null;
        slot = palette.length;
        slots.set(pixel, slot);
        const at = i * 4;
        palette.push([bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!]);
        opaque &&= bytes[at + 3] === 255;
      }
      last = pixel;
      lastSlot = slot;
    }
    indices[i] = lastSlot;
  }
  return encode(
    // Fully opaque pictures need no transparency chunk: an RGB palette.
    {
      width,
      height,
      data: indices,
      depth: 8,
      channels: 1,
      palette: opaque ? palette.map((c) => c.slice(0, 3)) : palette,
    },
    { zlib: { level: 9 } },
  );
}
