/** Runs in a drawing thread (drawing.ts): one picture per task, so layout and rasterising never hold up requests. */
import { constants, getPriority, setPriority } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { workerData } from 'node:worker_threads';
import type { ImageFormat } from '@aitools/contracts/images';
import { Resvg } from '@resvg/resvg-js';
import { renderCardImage, type Card } from './render';
import { losslessWebp } from './webp';

// The warm-up's thread takes the lowest CPU priority, for this thread only (on Linux a thread's nice value is its
// own): it draws with what requests leave. A visitor's thread keeps the process's priority.
if ((workerData as { lowPriority?: boolean } | null)?.lowPriority) {
  try {
    setPriority(constants.priority.PRIORITY_LOW);
  } catch {
    /* not permitted here: drawing still runs off the request thread */
  }
}

// resvg keeps each picture's pixels (3 MB at 1200x630) outside the JS heap until its small JS object is collected,
// which V8, seeing only the small object, puts off: 500 pictures held 1.5 GB. A collection of this thread's small heap
// after each picture (about 1 ms) frees them, once the finalizers it queues have run: they run as an immediate, and
// between tasks the pool's thread waits without running its event loop, so the task waits for them itself
// (docs/performance.md, Memory).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** One picture's drawing, then the collection that frees its pixels (above). */
async function collectedAfter(drawing: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await drawing();
  } finally {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export default async function draw({
  card,
  width,
  format,
}: {
  card: Card;
  width?: number;
  format?: ImageFormat;
}): Promise<Uint8Array> {
  return collectedAfter(() => renderCardImage(card, width, format));
}

/** A logo tile (its SVG) rasterised at `width` px square, as lossless WebP. */
export async function logo({ svg, width }: { svg: string; width: number }): Promise<Uint8Array> {
  return collectedAfter(() => {
    const image = new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render();
    return losslessWebp(image.pixels, image.width, image.height);
  });
}

/** This thread's nice value (on Linux, getpriority of the calling thread). */
export function niceness(): number {
  return getPriority();
}

/** Whether this thread has loaded the WebP encoder (how the tests see that only a visitor's thread does). */
export { encoderLoaded as loadedWebpEncoder } from './webp';
