/**
 * Rendered pages, cached: a GET page's HTML (with its gzip or brotli bytes once a browser asked for them) is kept per URL (path and query), the
 * releases that serve the remotes, the data version and the day, so a release, a rollback or a data change each make a
 * new key. Only what is the same for every visitor is kept: status 200 or 404, HTML, no Set-Cookie, not a form
 * page. Pages carry no per-response nonce (the CSP allows the inline theme script by hash), so a stored page is
 * served as it is. What is kept here, a shared cache in front may keep too: stored pages carry its headers
 * (edge/headers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { encodeReply, sendEncoded, type Reply, type ReplyCache } from '../http/cachedResponse';
import { canonicalPageAddress, isPageAddress } from '../http/canonicalAddress';
import type { ReleaseServing } from '../releases/serving';
import type { PageRenderer } from './renderPage';
import { tokenPeriod } from '../releases/signalTokens';
import { SHARED_PAGE_CACHE_CONTROL, sharedPageHeaders } from '../edge/headers';

const CACHEABLE_STATUS = new Set([200, 404]);
/** The forms' pages carry a fresh idempotency key for each visitor (mfe-forms formPageLoader): never shared. */
const PER_VISITOR_REMOTES = new Set(['forms']);

/** The release that serves each remote to this visitor (after any fallback; `pins`: the visitor's canaries), as one
 *  key part: a release, a rollback, a fallback or the other side of a canary gives other pages. */
export function servedReleasesKey(
  serving: Pick<ReleaseServing, 'current'>,
  remotes: readonly string[],
  pins: Record<string, string> = {},
): string {
  return remotes.map((remote) => `${remote}=${serving.current(remote, pins[remote]).release?.id ?? '-'}`).join(',');
}

/** A page's key: its address (only the parameters the page reads: http/canonicalAddress.ts), the served releases,
 *  the day (a page may show today's date, as the legal pages' "Last updated" does, by the server's clock) and the
 *  report tokens' period (a stored page carries its tokens, which expire: releases/signalTokens.ts). */
const pageKey = (url: string, releases: string) =>
  `page\u0000${url}\u0000${releases}\u0000${new Date().toDateString()}\u0000${tokenPeriod()}`;

export interface CachedPages extends RequestHandler {
  /** The front lane for pages (see ReplyCache.replay): a stored page sent again without Express. */
  replay(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
}

/** What a shared cache is told of a page: its purge keys and the canary side it was rendered for (releases/side.ts). */
export interface EdgeTags {
  keys: string[];
  side: string;
}

export function cachedPages(
  renderer: PageRenderer,
  opts: {
    cache: ReplyCache;
    releases: (req: IncomingMessage) => string;
    edge: (req: IncomingMessage) => EdgeTags;
    /** Asked before each render of a GET: false when it was refused (and answered). */
    admit?: (req: Request, res: Response) => Promise<boolean>;
  },
): CachedPages {
  const admitted = (req: Request, res: Response) => opts.admit?.(req, res) ?? true;
  const serveGet = async (req: Request, res: Response) => {
    const remote = renderer.remoteOf(req.path);
    if (remote && PER_VISITOR_REMOTES.has(remote)) return (await admitted(req, res)) && renderer.render(req, res);
    const address = canonicalPageAddress(req.originalUrl);
    const key = pageKey(address, opts.releases(req));
    const { version, hit } = await opts.cache.lookup(key);
    if (hit) return sendEncoded(req, res, hit);
    if (!(await admitted(req, res))) return;
    // Rendered from that address, so what is stored under it is what it shows whatever else the client added.
    req.url = req.originalUrl = address;
    const reply = await captureRender(renderer, req, res, opts.edge(req));
    if (!reply) return;
    const encoded = encodeReply(reply);
    opts.cache.store(key, version, encoded);
    await sendEncoded(req, res, encoded);
  };
  const handler: RequestHandler = (req, res, next) => {
    // A form post runs an action and answers that visitor: never cached.
    const work = req.method === 'GET' || req.method === 'HEAD' ? serveGet(req, res) : renderer.render(req, res);
    work.catch(next);
  };
  // Only stored pages are replayed, so the forms' pages (never stored) always reach the renderer. An address with a
  // query and no page in the route table may belong to another route that reads it: Express decides.
  return Object.assign(handler, {
    replay(req: IncomingMessage, res: ServerResponse) {
      const url = req.url ?? '';
      if (url.includes('?') && !isPageAddress(url)) return false;
      return opts.cache.replay(req, res, pageKey(canonicalPageAddress(url), opts.releases(req)));
    },
  });
}

/**
 * Renders the page; a cacheable answer is held back and returned (the caller stores and sends it), any other one
 * (a redirect, a 503, an error page) goes out as the renderer sent it, and null is returned.
 */
async function captureRender(
  renderer: PageRenderer,
  req: Request,
  res: Response,
  edge: EdgeTags,
): Promise<Reply | null> {
  const send = res.send;
  let captured: Reply | null = null;
  res.send = function (this: Response, body?: unknown) {
    res.send = send;
    const type = String(res.getHeader('Content-Type') ?? '');
    if (
      typeof body === 'string' &&
      CACHEABLE_STATUS.has(res.statusCode) &&
      !res.getHeader('Set-Cookie') &&
      type.startsWith('text/html')
    ) {
      const policy = res.getHeader('Content-Security-Policy');
      captured = {
        status: res.statusCode,
        type,
        body,
        cacheControl: SHARED_PAGE_CACHE_CONTROL,
        headers: {
          ...sharedPageHeaders(edge.keys, edge.side),
          ...(typeof policy === 'string' ? { 'content-security-policy': policy } : {}),
        },
      };
      return this;
    }
    return send.call(this, body);
  } as Response['send'];
  try {
    await renderer.render(req, res);
  } finally {
    res.send = send;
  }
  return captured;
}
