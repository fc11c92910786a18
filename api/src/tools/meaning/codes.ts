/** A tool's or a search's code: the signs of its 512-number sentence embedding, 64 bytes (meaningWorker.ts). Two
 *  texts are as near in meaning as their codes have bits in common (docs/dependencies.md, The search's meaning
 *  model). */
export const DIMENSIONS = 512;
export const CODE_BYTES = DIMENSIONS / 8;

/** A code as Postgres' bit(512) literal: bit i of the code is the string's character i. */
export function asBits(code: Uint8Array): string {
  let s = '';
  for (let i = 0; i < DIMENSIONS; i++) s += (code[i >> 3]! >> (i & 7)) & 1 ? '1' : '0';
  return s;
}
