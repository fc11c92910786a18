/**
 * Pictures are drawn off the event loop. Laying out and rasterising one takes about 150 ms of CPU (satori, resvg);
 * on the request thread every request waiting behind it would wait that long, and a large catalogue's warm-up would
 * keep the loop busy for minutes. One thread, so drawing never takes more than one core; it exits when idle.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { Card } from './render';

// From source (tests, tsx) the worker is TypeScript and loads through tsx; the compiled server has drawWorker.js
// beside its bundle (api/build.mjs).
const fromSource = import.meta.url.endsWith('.ts');
let pool: Piscina | null = null;

function drawingPool(): Piscina {
  pool ??= new Piscina({
    filename: fileURLToPath(new URL(`./drawWorker.${fromSource ? 'ts' : 'js'}`, import.meta.url)),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
    execArgv: fromSource ? ['--import', 'tsx'] : [],
  });
  return pool;
}

/** The card as PNG bytes, drawn in the drawing thread; `width` scales the same layout down. */
export async function drawCard(card: Card, width?: number): Promise<Buffer> {
  const bytes = (await drawingPool().run({ card, width })) as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Pictures the drawing thread has finished since start (how the tests see drawing left the request thread). */
export const drawnInThread = (): number => pool?.completed ?? 0;
