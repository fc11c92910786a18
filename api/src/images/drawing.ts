/**
 * Pictures are drawn off the event loop. Laying out and rasterising one takes 30-90 ms of CPU (satori, resvg, the
 * palette PNG); on the request thread every request waiting behind it would wait that long, and a large catalogue's
 * warm-up would keep the loop busy for minutes.
 *
 * Two threads, one per kind of work, each exiting when idle:
 * - a visitor's picture (one not drawn yet) is drawn at the process's own priority: on a machine whose cores are
 *   busy, a thread at the lowest priority drew a cover in 2-6 s instead of 30-90 ms, and a page of covers waited
 *   for all of them (docs/performance.md, "Drawing pictures");
 * - the warm-up draws at the lowest priority, one picture at a time, from what requests leave.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ImageFormat } from '@aitools/contracts/images';
import type { Card } from './render';

export type DrawingKind = 'visitor' | 'background';

// From source (tests, tsx) the worker is TypeScript and loads through tsx; the compiled server has drawWorker.js
// beside its bundle (api/build.mjs).
const fromSource = import.meta.url.endsWith('.ts');
const pools = new Map<DrawingKind, Piscina>();

function drawingPool(kind: DrawingKind): Piscina {
  let pool = pools.get(kind);
  if (!pool) {
    pool = new Piscina({
      filename: fileURLToPath(new URL(`./drawWorker.${fromSource ? 'ts' : 'js'}`, import.meta.url)),
      workerData: { lowPriority: kind === 'background' },
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 30_000,
      execArgv: fromSource ? ['--import', 'tsx'] : [],
    });
    pools.set(kind, pool);
  }
  return pool;
}

/** The card's bytes in a format (PNG unless told), drawn in a drawing thread; `width` scales the same layout down.
 *  WebP always in a visitor's thread, whatever the kind asked: libvips' shared threads would keep the warm-up's lowest
 *  priority (webp.ts). */
export async function drawCard(
  card: Card,
  { width, format = 'png' }: { width?: number; format?: ImageFormat } = {},
  kind: DrawingKind = 'visitor',
): Promise<Buffer> {
  const bytes = (await drawingPool(format === 'webp' ? 'visitor' : kind).run({ card, width, format })) as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A logo tile's SVG as a lossless WebP `width` px square, drawn in a visitor's drawing thread (WebP: webp.ts). */
export async function drawLogo(svg: string, width: number): Promise<Buffer> {
  const bytes = (await drawingPool('visitor').run({ svg, width }, { name: 'logo' })) as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Pictures a drawing thread has finished since start (how the tests see drawing left the request thread). */
export const drawnInThread = (kind: DrawingKind = 'visitor'): number => pools.get(kind)?.completed ?? 0;

/** The nice value a drawing thread runs at (how the tests see which work yields to which). */
export async function drawingNiceness(kind: DrawingKind): Promise<number> {
  return (await drawingPool(kind).run(null, { name: 'niceness' })) as number;
}

/** Whether a drawing thread has loaded the WebP encoder (webp.ts: only a visitor's may). */
export async function drawingLoadedWebpEncoder(kind: DrawingKind): Promise<boolean> {
  return (await drawingPool(kind).run(null, { name: 'loadedWebpEncoder' })) as boolean;
}
