/** A tool's or a search's code: the signs of its 512-number sentence embedding, 64 bytes (meaningWorker.ts). Two
 *  texts are as near in meaning as their codes have bits in common (docs/architecture.md, Directory search). */
export const DIMENSIONS = 512;
export const CODE_BYTES = DIMENSIONS / 8;

const ONES = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let x = b; x; x >>= 1) n += x & 1;
  return n;
});

/** How many bits two codes differ in (0 to 512). */
export function distance(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < CODE_BYTES; i++) d += ONES[a[i]! ^ b[i]!]!;
  return d;
}

/** A code as Postgres' bit(512) literal: bit i of the code is the string's character i. */
export function asBits(code: Uint8Array): string {
  let s = '';
  for (let i = 0; i < DIMENSIONS; i++) s += (code[i >> 3]! >> (i & 7)) & 1 ? '1' : '0';
  return s;
}
