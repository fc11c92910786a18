/**
 * What a shared cache in front (a CDN, Varnish: deploy/varnish/site.vcl) may do with each answer (docs/operations.md,
 * A shared cache in front). Anonymous pages, the ones the page cache keeps (ssr/pageCache.ts), are shared briefly:
 * browsers revalidate each time, shared caches keep them SHARED_SECONDS, serve them stale while they fetch them again
 * and, while the origin fails, for a day. Each carries its purge keys (edge/purges.ts) and the canary side it was made
 * for (releases/side.ts). An answer that is one visitor's own is private.
 */
import type { RequestHandler } from 'express';

/** How long a shared cache keeps a page without asking (a purge ends it sooner). */
export const SHARED_SECONDS = 60;
/** How long it may serve a page stale while it fetches it again. */
export const STALE_WHILE_REVALIDATE_SECONDS = 30;
/** How long it may serve a page stale while the origin fails. */
export const STALE_IF_ERROR_SECONDS = 24 * 60 * 60;

/** For browsers and caches that read only Cache-Control: revalidate, and `s-maxage` for shared caches. */
export const SHARED_PAGE_CACHE_CONTROL = `max-age=0, s-maxage=${SHARED_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}, stale-if-error=${STALE_IF_ERROR_SECONDS}`;
/** For the shared caches alone (CDN-Cache-Control and the older Surrogate-Control say the same). */
const SHARED_ONLY = `max-age=${SHARED_SECONDS}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}, stale-if-error=${STALE_IF_ERROR_SECONDS}`;

/** A visitor's own answer (a cookie set, a form's answer, a preview): browsers keep it, shared caches never. */
export const PRIVATE = 'private, no-cache';
/** An answer no one keeps (release API, metrics, console). */
export const NO_STORE = 'private, no-store';

/** The purge key of pages rendered from the public data (edge/purges.ts). */
export const DATA_KEY = 'data';
/** The purge key of the canary sides (releases/side.ts). */
export const SIDES_KEY = 'sides';
/** A remote's release as a purge key: the same name the breakers use (ssr/renderPage.ts). */
export const releaseKey = (remote: string, id: string) => `${remote}@${id}`;

/** The headers of a shared page, besides Cache-Control. */
export function sharedPageHeaders(keys: readonly string[], side: string): Record<string, string> {
  return {
    'cdn-cache-control': SHARED_ONLY,
    'surrogate-control': SHARED_ONLY,
    'surrogate-key': keys.join(' '),
    'release-side': side,
  };
}

const SHARED_HEADERS = ['cdn-cache-control', 'surrogate-control', 'surrogate-key'];

/**
 * An answer that sets a cookie is that visitor's: made private before its headers go out, whatever the route set
 * (a page that gives a canary bucket, a preview link). Answers that already say no-store or private stay as they are.
 */
export const privateWithCookies: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
    if (res.getHeader('set-cookie') !== undefined) {
      if (!/\b(private|no-store)\b/.test(String(res.getHeader('cache-control') ?? '')))
        res.setHeader('cache-control', PRIVATE);
      for (const name of SHARED_HEADERS) res.removeHeader(name);
    }
    return writeHead.apply(this, args);
  } as typeof res.writeHead;
  next();
};

/** Every answer of a router is no one's to keep (the release API, the console). */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('cache-control', NO_STORE);
  next();
};
