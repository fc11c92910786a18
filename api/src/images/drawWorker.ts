/** Runs in the drawing thread (drawing.ts): one picture per task, so layout and rasterising never hold up requests. */
import { constants, setPriority } from 'node:os';
import { renderCardPng, type Card } from './render';

// The lowest CPU priority for this thread only (on Linux a thread's nice value is its own): drawing uses what
// requests leave, however many pictures a large catalogue's warm-up has queued.
try {
  setPriority(constants.priority.PRIORITY_LOW);
} catch {
  /* not permitted here: drawing still runs off the request thread */
}

export default async function draw({ card, width }: { card: Card; width?: number }): Promise<Uint8Array> {
  return renderCardPng(card, width);
}
