/** Runs in the drawing thread (drawing.ts): one picture per task, so layout and rasterising never hold up requests. */
import { renderCardPng, type Card } from './render';

export default async function draw({ card, width }: { card: Card; width?: number }): Promise<Uint8Array> {
  return renderCardPng(card, width);
}
