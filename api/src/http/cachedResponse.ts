/**
 * Reads served like static files: a reply's body is serialised once per data version and kept, with its gzip or
 * brotli bytes once a client asked for that coding, a strong ETag per coding, in one LRU bounded by the bytes it holds. Used by the JSON/XML read routes and by the
 * page cache (ssr/pageCache.ts).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { canonicalAddress } from './canonicalAddress';

export interface Reply {
  status?: number;
  /** The full Content-Type, with its charset. */
  type: string;
  body: string;
  cacheControl?: string;
  /** Headers of this reply only (a page's own CSP). */
  headers?: Record<string, string>;
}

export type Coding = 'br' | 'gzip' | 'identity';

export interface EncodedReply {
  status: number;
  type: string;
  cacheControl: string;
  headers: Record<string, string>;
  /** The body as it is, and each coding once a client has asked for it (coded copies are made only for bytes that
   *  leave the process: the server's own in-process reads never ask for one). */
  bodies: Partial<Record<Coding, Buffer>> & { identity: Buffer };
  /** A body worth compressing (a small one is always sent as it is). */
  compressible: boolean;
  /** Strong validators, one per coding (a coded body is another representation). */
  etags: Partial<Record<Coding, string>>;
  /** Bytes held: every body's backing store and the entry's own objects. */
  size: number;
  /** Once Express has sent it for a route: the complete header sets to send it again (front lane), per answer. */
  replay?: { middleware: OutgoingHttpHeaders; answers: Map<string, OutgoingHttpHeaders> };
  /** Told when the entry grew (a coding was added), so its cache counts the new bytes. */
  grew?: () => void;
  /** Codings being made, so concurrent requests share one compression. */
  pendingCodings?: Partial<Record<Coding, Promise<Buffer>>>;
}

/** Below this, compressing saves less than it costs (the compression middleware's own threshold). */
export const MIN_COMPRESS_BYTES = 1024;
/** How brotli codes a body: its quality, and the largest window it may use. */
export interface BrotliSetting {
  quality: number;
  mostWindowBits: number;
}
/**
 * A reply, coded as it is first asked for: quality 6 is about 10% smaller than gzip -9 at a few ms for a 100 kB page
 * (9-11 take 30-50 times longer); a window of at most 64 KiB, since a larger one made the encoder's buffers big
 * enough to be mapped and faulted afresh at every coding under the server's allocator settings: twice the time for
 * the home page, for 0.5% of its bytes (docs/performance.md, "Compression's window").
 */
export const REPLY_BROTLI: BrotliSetting = { quality: 6, mostWindowBits: 16 };
/** A static file, coded once and sent to every visitor: the best quality and any window (a 64 KiB one cost the
 *  largest bundle 3% more bytes). */
export const STATIC_BROTLI: BrotliSetting = {
  quality: zlib.BROTLI_MAX_QUALITY,
  mostWindowBits: zlib.BROTLI_MAX_WINDOW_BITS,
};
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The bytes in a buffer of their own. zlib answers with views into its 16 KiB output chunks, and Buffer.from answers
 * a short string with a view into an 8 KiB shared pool: a stored view keeps the whole block alive, which made the
 * caches hold several times what they counted (docs/performance.md, Memory).
 */
export function ownBytes(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.buffer.byteLength === buf.length) return buf;
  const own = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(own);
  return own;
}

/** What an entry holds besides its bodies (the entry, its validators and header objects), from a heap snapshot. */
const ENTRY_OVERHEAD_BYTES = 2048;

export function encodeReply(reply: Reply): EncodedReply {
  const identity = ownBytes(Buffer.from(reply.body));
  const compressible = identity.length >= MIN_COMPRESS_BYTES;
  const digest = createHash('sha1').update(identity).digest('base64url');
  const etags: EncodedReply['etags'] = { identity: `"${digest}"` };
  if (compressible) Object.assign(etags, { gzip: `"${digest}-gz"`, br: `"${digest}-br"` });
  const size = identity.length + ENTRY_OVERHEAD_BYTES;
  return {
    status: reply.status ?? 200,
    type: reply.type,
    cacheControl: reply.cacheControl ?? 'no-cache',
    headers: reply.headers ?? {},
    bodies: { identity },
    compressible,
    etags,
    size,
  };
}

/** Brotli's window for a body: the smallest that holds all of it (a larger one finds no more matches), at most
 *  `most` bits. */
function brotliWindowBits(bytes: number, most: number): number {
  const bits = Math.ceil(Math.log2(Math.max(bytes, 1)));
  return Math.min(Math.max(bits, zlib.BROTLI_MIN_WINDOW_BITS), most);
}

/** `identity` in a coding, on libuv's thread pool. */
export function compress(
  identity: Buffer,
  coding: Exclude<Coding, 'identity'>,
  brotli: BrotliSetting = REPLY_BROTLI,
): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(identity, { level: 9 });
  return brotliAsync(identity, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: brotli.quality,
      [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
      [zlib.BROTLI_PARAM_LGWIN]: brotliWindowBits(identity.length, brotli.mostWindowBits),
    },
  });
}

/** The body in a coding, made on first ask on libuv's thread pool (never blocking other requests), then kept. */
function bodyIn(e: EncodedReply, coding: Coding): Buffer | Promise<Buffer> {
  const held = e.bodies[coding];
  if (held) return held;
  const making = (e.pendingCodings ??= {});
  return (making[coding] ??= compress(e.bodies.identity, coding as Exclude<Coding, 'identity'>).then((coded) => {
    const own = ownBytes(coded);
    e.bodies[coding] = own;
    e.size += own.length;
    delete making[coding];
    e.grew?.();
    return own;
  }));
}

const PRECOMPRESSED = Symbol('precompressed');
const REPLAYABLE = Symbol('replayable');

/**
 * Marks the requests whose answers the front lane may send again (ReplyCache.replay): those of the public stack,
 * with all of its headers. The same reads also answer server rendering in process, without them.
 */
export const replayableAnswers: RequestHandler = (_req, res, next) => {
  (res.locals as Record<symbol, unknown>)[REPLAYABLE] = true;
  next();
};

/** Tells the compression middleware this response's body is already coded (or deliberately not). */
export function markPrecompressed(res: Response): void {
  (res.locals as Record<symbol, unknown>)[PRECOMPRESSED] = true;
}

/** For the compression middleware's filter: this response's body is already coded (or deliberately not). */
export function isPrecompressed(res: Response): boolean {
  return (res.locals as Record<symbol, unknown>)[PRECOMPRESSED] === true;
}

/** Whether an If-None-Match header names one of these validators (or is `*`). */
export function ifNoneMatch(header: string | undefined, etags: EncodedReply['etags']): boolean {
  if (!header) return false;
  const known = Object.values(etags);
  return header.split(',').some((t) => {
    const v = t.trim().replace(/^W\//, '');
    return v === '*' || known.includes(v);
  });
}

/** Best first: with equal q-values, the client's order does not count (most browsers list gzip before br). */
const CODINGS: Coding[] = ['br', 'gzip', 'identity'];

// negotiator 1.x takes the server's preference order (its published types describe 0.6).
type Negotiator1 = { encoding(available: string[], opts: { preferred: string[] }): string | undefined };
/** The best coding the client accepts (a parse of about a microsecond: cheaper than remembering it). */
export function bestCoding(acceptEncoding: string | undefined): Coding {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as Negotiator1;
  return (negotiator.encoding(CODINGS, { preferred: CODINGS }) as Coding | undefined) ?? 'identity';
}

const codingFor = (req: IncomingMessage, e: EncodedReply): Coding =>
  e.compressible ? bestCoding(req.headers['accept-encoding']) : 'identity';

interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
}

/** What to send for a stored reply: 304 for a matching If-None-Match, else the best coding the client accepts. */
function answer(req: IncomingMessage, e: EncodedReply, used: Coding, body: Buffer): Answer & { key: string } {
  const headers: OutgoingHttpHeaders = { ...e.headers, vary: 'Accept-Encoding', 'cache-control': e.cacheControl };
  // Validators only for successful replies (a 404 is not a representation to revalidate).
  if (e.status === 200) {
    headers.etag = e.etags[used];
    if (ifNoneMatch(req.headers['if-none-match'], e.etags)) return { key: `${used} 304`, status: 304, headers };
  }
  headers['content-type'] = e.type;
  if (used !== 'identity') headers['content-encoding'] = used;
  headers['content-length'] = String(body.length);
  return { key: used, status: e.status, headers, body };
}

/**
 * Sends a stored reply through Express (its middleware's headers, such as the security headers, stay). Sent by the
 * public stack, it becomes replayable: the front lane may send it again with the same headers (ReplyCache.replay).
 */
export async function sendEncoded(req: Request, res: Response, e: EncodedReply): Promise<void> {
  const locals = res.locals as Record<symbol, unknown>;
  markPrecompressed(res);
  const used = codingFor(req, e);
  const { status, headers, body } = answer(req, e, used, await bodyIn(e, used));
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'vary') res.vary(String(value));
    else res.set(name, value as string);
  }
  res.status(status).end(body);
  if (locals[REPLAYABLE] === true && !e.replay && e.status === status)
    e.replay = { middleware: middlewareHeaders(res), answers: new Map() };
}

/** The headers Express's middleware added to a reply (security headers, Vary), without the per-answer ones. */
const PER_ANSWER = new Set([
  'etag',
  'content-type',
  'content-encoding',
  'content-length',
  'cache-control',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);
function middlewareHeaders(res: Response): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(res.getHeaders()).filter(([name]) => !PER_ANSWER.has(name)));
}

export interface ReplyCache {
  /** The current data version (a new one drops every stored reply) and the reply stored for this key at it. */
  lookup(key: string): Promise<{ version: number; hit: EncodedReply | undefined }>;
  /** Stores a reply made from the data at `version` (ignored when the data has changed since). */
  store(key: string, version: number, reply: EncodedReply): void;
  /** The stored reply, or produce, encode and store it (concurrent callers share one production). */
  get(key: string, produce: () => Reply | Promise<Reply>): Promise<EncodedReply>;
  /**
   * A GET route whose reply depends only on its path, the query parameters named in `query` and the data: it is kept
   * under that address (http/canonicalAddress.ts), and `produce` sees only those parameters.
   */
  route(query: readonly string[], produce: (req: Request) => Reply | Promise<Reply>): RequestHandler;
  /**
   * The front lane, for the HTTP server before Express: a reply that Express already sent for this key (a route's:
   * its canonical address) at the current data version is sent again as it went out (the middleware's headers replayed), without
   * running Express. Answers whether it sent it; on Postgres, where the version is a query, it answers later.
   */
  replay(req: IncomingMessage, res: ServerResponse, key?: string): boolean | Promise<boolean>;
  /** The bytes it holds: the stored replies, and the paths whose parameters it has learned. */
  held(): { replies: number; paths: number };
}

/** The paths whose parameters a cache has learned: about 8,000 paths of 60 characters (any path may be asked for). */
export const PATHS_MAX_BYTES = 1024 * 1024;
/** A learned path's bytes beyond its characters: the LRU's node and the reference to its parameter list. */
const PATH_OVERHEAD = 96;

export function createReplyCache(opts: {
  version: () => number | Promise<number>;
  maxBytes: number;
  /** Told of each lookup's outcome (metrics); a front-lane miss is told by the lookup Express makes next. */
  onLookup?: (hit: boolean) => void;
  /** Asked before a visitor's read that missed is produced: false when it was refused (and answered). */
  admit?: (req: Request, res: Response) => Promise<boolean>;
}): ReplyCache {
  const lru = new LRUCache<string, EncodedReply>({
    maxSize: opts.maxBytes,
    sizeCalculation: (e, key) => e.size + key.length * 2,
  });
  const pending = new Map<string, Promise<EncodedReply>>();
  // The parameters each path's route reads, learned as routes answer from this cache, so the front lane keys an
  // address with other parameters as the route does (a path not seen yet goes to Express). Bounded by its bytes: any
  // path may be asked for, up to the length the server reads.
  const readsOf = new LRUCache<string, readonly string[]>({
    maxSize: PATHS_MAX_BYTES,
    sizeCalculation: (_query, path) => path.length * 2 + PATH_OVERHEAD,
  });
  const addressOf = (url: string) => {
    const q = url.indexOf('?');
    const query = q === -1 ? undefined : readsOf.get(url.slice(0, q));
    return query ? canonicalAddress(url, query) : url;
  };
  let current = -1;
  const settle = (v: number) => {
    if (v !== current) {
      lru.clear();
      current = v;
    }
    return v;
  };
  const version = async () => settle(await opts.version());
  // The version is read before the data, so a reply is never stored under a newer version than its data.
  const slot = (key: string, v: number) => `${v}\u0000${key}`;
  /** Produces, encodes and stores the reply for a key that missed (concurrent callers share one production). */
  const produceOnce = (key: string, v: number, produce: () => Reply | Promise<Reply>) => {
    const k = slot(key, v);
    let p = pending.get(k);
    if (!p) {
      p = Promise.resolve()
        .then(produce)
        .then(encodeReply)
        .then((e) => (cache.store(key, v, e), e))
        .finally(() => pending.delete(k));
      pending.set(k, p);
    }
    return p;
  };

  const cache: ReplyCache = {
    async lookup(key) {
      const v = await version();
      const hit = lru.get(slot(key, v));
      opts.onLookup?.(hit !== undefined);
      return { version: v, hit };
    },
    store(key, v, reply) {
      if (v !== current) return;
      const k = slot(key, v);
      lru.set(k, reply);
      // A coding added later is counted too: stored again, so the cache counts its new size and evicts to fit (the
      // LRU keeps an entry's first size when the same object is set again).
      reply.grew = () => {
        if (lru.peek(k) !== reply) return;
        lru.delete(k);
        lru.set(k, reply);
      };
    },
    async get(key, produce) {
      const { version: v, hit } = await cache.lookup(key);
      return hit ?? produceOnce(key, v, produce);
    },
    route: (query, produce) => (req, res, next) => {
      const key = canonicalAddress(req.originalUrl, query);
      const path = req.originalUrl.split('?', 1)[0]!;
      // Learned once this cache holds the path's answer: a read refused by its budget costs no memory.
      const learn = (reply: EncodedReply) => {
        if (readsOf.get(path) !== query) readsOf.set(path, query);
        return reply;
      };
      // req.query is read from req.url: the route sees only the parameters it is keyed on.
      req.url = canonicalAddress(req.url, query);
      const answer = async () => {
        const { version: v, hit } = await cache.lookup(key);
        if (hit) return sendEncoded(req, res, learn(hit));
        // A visitor's read that misses: spent from its budget (server rendering's own reads are the page's).
        const visitors = (res.locals as Record<symbol, unknown>)[REPLAYABLE] === true;
        if (visitors && opts.admit && !(await opts.admit(req, res))) return;
        return sendEncoded(req, res, learn(await produceOnce(key, v, () => produce(req))));
      };
      answer().catch(next);
    },
    replay(req, res, key = addressOf(req.url ?? '')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const send = (v: number) => {
        const e = lru.get(slot(key, settle(v)));
        // A coding not made yet is made on Express's path (sendEncoded).
        if (!e?.replay) return false;
        const used = codingFor(req, e);
        const coded = e.bodies[used];
        if (!coded) return false;
        const { key: kind, status, headers, body } = answer(req, e, used, coded);
        // The merged header set is made once per coding (and for the 304), then reused as it is.
        let all = e.replay.answers.get(kind);
        if (!all) e.replay.answers.set(kind, (all = { ...e.replay.middleware, ...headers }));
        res.writeHead(status, all);
        res.end(req.method === 'HEAD' ? undefined : body);
        opts.onLookup?.(true);
        return true;
      };
      const v = opts.version();
      return typeof v === 'number' ? send(v) : v.then(send);
    },
    held: () => ({ replies: lru.calculatedSize, paths: readsOf.calculatedSize }),
  };
  return cache;
}

/** A JSON reply (the shape res.json would send). */
export const json = (value: unknown, status = 200, cacheControl?: string): Reply => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(value),
  cacheControl,
});
