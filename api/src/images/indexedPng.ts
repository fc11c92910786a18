import { crc32, deflateSync } from 'node:zlib';

/** A PNG palette holds at most this many colours. */
const PALETTE_MAX = 256;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const COLOUR_TYPE_PALETTE = 3;

/** One PNG chunk: length, type, data, and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * The picture as an indexed (palette) PNG, losslessly, or null when it has more colours than a palette holds.
 * The generated cards are flat colours and anti-aliased type (about 130 colours): as 8-bit indices deflated at
 * level 9 they weigh about 10 kB at 800 px instead of the 24 kB of the renderer's RGBA PNG (docs/performance.md,
 * Phones). The container is five small chunks; the deflating is Node's own zlib, 8% fewer bytes than a JavaScript
 * PNG encoder's deflate at the same level, in the same time (docs/dependencies.md).
 */
export function indexedPng(rgba: Uint8Array, width: number, height: number): Uint8Array | null {
  // A view of four bytes per pixel needs an aligned start (a pooled Buffer may not have one).
  const bytes = rgba.byteOffset % 4 === 0 ? rgba : new Uint8Array(rgba);
  const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, width * height);
  // Each row starts with its filter byte: 0, none (the filter palette pictures deflate best with).
  const rows = Buffer.alloc((width + 1) * height);
  const slots = new Map<number, number>();
  const palette: number[] = [];
  const alpha: number[] = [];
  let last = -1;
  let lastSlot = 0;
  for (let y = 0, i = 0; y < height; y++) {
    let at = y * (width + 1) + 1;
    for (let x = 0; x < width; x++, i++, at++) {
      const pixel = pixels[i]!;
      // Runs of one colour are most of a card: skip the lookup while the colour stays.
      if (pixel !== last) {
        let slot = slots.get(pixel);
        if (slot === undefined) {
          if (slots.size === PALETTE_MAX) return null;
          slot = slots.size;
          slots.set(pixel, slot);
          palette.push(bytes[i * 4]!, bytes[i * 4 + 1]!, bytes[i * 4 + 2]!);
          alpha.push(bytes[i * 4 + 3]!);
        }
        last = pixel;
        lastSlot = slot;
      }
      rows[at] = lastSlot;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, COLOUR_TYPE_PALETTE, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', Uint8Array.from(palette)),
    // Fully opaque pictures need no transparency chunk.
    ...(alpha.every((a) => a === 255) ? [] : [chunk('tRNS', Uint8Array.from(alpha))]),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
