import { readFile } from 'node:fs/promises';
import type { Response } from 'express';

/** `/retry/<token>/<file>` inside a release: the browser's retry of a remote that failed to load. */
export const RETRY_PATH = /^\/retry\/([\w-]{1,40})\/([\w.-]+)$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The federation entry names its chunks by absolute address (the release's base). Under a retry address those
 * names move to the retry prefix, so the entry and every chunk it loads are URLs the browser has never failed on.
 */
export async function sendRetryEntry(res: Response, file: string, base: string, token: string): Promise<void> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch {
    res.sendStatus(404);
    return;
  }
  res
    .status(200)
    .type('application/javascript')
    .set('Cache-Control', IMMUTABLE)
    .send(source.split(base).join(`${base}retry/${token}/`));
}
