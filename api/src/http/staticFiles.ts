/**
 * The site's static files (the shell's assets, release files) compressed once at the best ratio and kept, instead of
 * compressed again on every request at the compression middleware's fast setting (brotli 4): brotli 11 makes the
 * shell's two largest modules 14% smaller, and a kept answer costs a copy instead of a compression
 * (docs/performance.md, "Static files").
 *
 * The first request for a file in a coding waits while it is made on libuv's thread pool (concurrent ones share it);
 * later ones get the kept bytes. The cache holds at most `maxBytes` of coded bytes (least recently used out first) and
 * is keyed by path, size and modification time, so a changed file is never served from an older copy.
 */
import { readFile, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Request, Response } from 'express';
import {
  bestCoding,
  compress,
  ifNoneMatch,
  markPrecompressed,
  MIN_COMPRESS_BYTES,
  ownBytes,
  STATIC_BROTLI,
  type Coding,
} from './cachedResponse';

/** Text types worth compressing; images other than SVG, fonts and archives are already compressed. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.xml', '.map', '.webmanifest']);
/** A larger file is left to the middleware: its best coding would hold the thread pool too long. */
const MAX_BYTES = 4 * 1024 * 1024;
/** What an entry holds besides its bytes (its key, validators and the LRU's node). */
const ENTRY_OVERHEAD_BYTES = 512;

interface Coded {
  coding: 'br' | 'gzip';
  body: Buffer;
  /** The file it was made from: a file whose size or mtime changed is made again. */
  size: number;
  mtimeMs: number;
  etag: string;
}

export interface StaticFileCache {
  /**
   * Sends `file` (relative to `root`) in the best coding the client accepts, made on the first ask and then kept,
   * and says so; false when the caller should serve it itself (not compressible, not a file, the client accepts no
   * coding, or the file changed while it was read).
   */
  send(req: Request, res: Response, root: string, file: string, cacheControl: string): boolean | Promise<boolean>;
  /** Bytes held (for tests and the docs' figures). */
  readonly bytes: number;
}

/** The file's absolute path when `file` names one plainly inside `root` (no `..`, no dot files), else null. */
function inside(root: string, file: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(file);
  } catch {
    return null;
  }
  if (rel.includes('\0') || rel.split('/').some((s) => s === '..' || s.startsWith('.'))) return null;
  const abs = join(root, rel);
  return abs.startsWith(root.endsWith(sep) ? root : root + sep) ? abs : null;
}

export function createStaticFileCache(opts: { maxBytes: number; onLookup?: (hit: boolean) => void }): StaticFileCache {
  const lru = new LRUCache<string, Coded>({
    maxSize: opts.maxBytes,
    sizeCalculation: (c, key) => c.body.length + key.length + ENTRY_OVERHEAD_BYTES,
  });
  /** Codings being made: one per file and coding, however many requests wait for it. */
  const making = new Map<string, Promise<Coded | null>>();

  /** The file in `coding`, or null when it changed while being read, went away or cannot be read. */
  async function make(abs: string, coding: 'br' | 'gzip', key: string): Promise<Coded | null> {
    try {
      const before = await stat(abs);
      const body = await readFile(abs);
      const after = await stat(abs);
      if (before.mtimeMs !== after.mtimeMs || before.size !== after.size || body.length !== after.size) return null;
      const coded: Coded = {
        coding,
        body: ownBytes(await compress(body, coding, STATIC_BROTLI)),
        size: after.size,
        mtimeMs: after.mtimeMs,
        etag: `"${after.size.toString(16)}-${Math.trunc(after.mtimeMs).toString(16)}-${coding}"`,
      };
      lru.set(key, coded);
      return coded;
    } catch {
      return null;
    } finally {
      making.delete(key);
    }
  }

  function answer(req: Request, res: Response, kept: Coded, ext: string, cacheControl: string): void {
    markPrecompressed(res);
    res.vary('Accept-Encoding');
    res.set({ 'Cache-Control': cacheControl, ETag: kept.etag, 'Last-Modified': new Date(kept.mtimeMs).toUTCString() });
    if (ifNoneMatch(req.headers['if-none-match'], { [kept.coding]: kept.etag })) {
      res.status(304).end();
      return;
    }
    res.type(ext);
    res.set({ 'Content-Encoding': kept.coding, 'Content-Length': String(kept.body.length) });
    res.status(200).end(req.method === 'HEAD' ? undefined : kept.body);
  }

  return {
    get bytes() {
      return lru.calculatedSize;
    },
    send(req, res, root, file, cacheControl) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const ext = extname(file).toLowerCase();
      if (!COMPRESSIBLE.has(ext)) return false;
      const coding: Coding = bestCoding(req.headers['accept-encoding']);
      if (coding === 'identity') return false;
      const abs = inside(root, file);
      if (!abs) return false;
      const st = statSync(abs, { throwIfNoEntry: false });
      if (!st?.isFile() || st.size < MIN_COMPRESS_BYTES || st.size > MAX_BYTES) return false;
      const key = `${abs}\0${coding}`;
      const kept = lru.get(key);
      const fresh = kept && kept.size === st.size && kept.mtimeMs === st.mtimeMs ? kept : undefined;
      opts.onLookup?.(!!fresh);
      if (fresh) {
        answer(req, res, fresh, ext, cacheControl);
        return true;
      }
      // The first ask waits for the best coding (once per file and instance; about 0.3 s for a 231 kB module), so
      // every answer, and every copy a CDN keeps of it for a year, is the smallest.
      let pending = making.get(key);
      if (!pending) making.set(key, (pending = make(abs, coding, key)));
      return pending.then((made) => {
        if (!made || res.headersSent) return false;
        answer(req, res, made, ext, cacheControl);
        return true;
      });
    },
  };
}
