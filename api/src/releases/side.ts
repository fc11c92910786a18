/**
 * Canaries through a shared cache: the cache keys a page on the visitor's side, never on the bucket cookie itself
 * (a hundred copies of every page). A side is `stable`, or the canaries that serve this visitor
 * (`blog@<id>`, several joined by `+`). The cache asks the origin once per bucket which side it is on, through
 * SIDE_PATH, and keeps that answer until a release changes (purge key SIDES_KEY); each page says the side it was
 * rendered for (Release-Side), so a cache that asked before a change never stores a page under the wrong side.
 * The edge rule for Varnish is deploy/varnish/site.vcl; for CDNs, docs/operations.md, A shared cache in front.
 */
import type { RequestHandler } from 'express';
import { BUCKET_COOKIE, type Canaries } from './canary';
import { releaseKey, SHARED_PAGE_CACHE_CONTROL, sharedPageHeaders, SIDES_KEY } from '../edge/headers';

export const SIDE_PATH = '/__edge/side';
/** The side of every visitor outside a canary. */
export const STABLE_SIDE = 'stable';
/** The side of a browser's first page while a canary runs: it gets its bucket from the origin (never shared). */
export const NEW_SIDE = 'new';

/** The side a visitor's canaries (remote -> release) make. */
export function sideOf(canaries: Record<string, string>): string {
  const entries = Object.entries(canaries).sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? entries.map(([remote, id]) => releaseKey(remote, id)).join('+') : STABLE_SIDE;
}

/**
 * GET SIDE_PATH?bucket=<0-99|new>: the side of that bucket, in the Release-Side header of an empty answer that a
 * shared cache keeps like a page. `new` is a browser's first page without a bucket: NEW_SIDE while a canary runs.
 */
export function sideRoute(canaries: Canaries): RequestHandler {
  return (req, res) => {
    const bucket = String(req.query.bucket ?? '');
    if (bucket !== 'new' && !/^\d{1,2}$/.test(bucket))
      return void res
        .status(400)
        .set('Cache-Control', 'no-store')
        .type('text/plain')
        .send('bucket must be a number from 0 to 99, or new');
    const asked =
      bucket === 'new'
        ? { headers: { 'sec-fetch-dest': 'document' } }
        : { headers: { cookie: `${BUCKET_COOKIE}=${bucket}` } };
    const side = bucket === 'new' && canaries.needsBucket(asked) ? NEW_SIDE : sideOf(canaries.pins(asked));
    res
      .status(204)
      .set('Cache-Control', SHARED_PAGE_CACHE_CONTROL)
      .set(sharedPageHeaders([SIDES_KEY], side))
      .end();
  };
}
