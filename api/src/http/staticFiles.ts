/**
 * The site's static files (the shell's assets, release files) compressed once at the best ratio and kept, instead of
 * compressed again on every request at the compression middleware's fast setting (brotli 4): brotli 11 makes the
 * shell's two largest modules 14% smaller, and a kept answer costs a copy instead of a compression
 * (docs/performance.md, "Static files").
 *
 * The first request for a file is answered as before (Express's static files, compressed on the fly) while the best
 * coding is made on libuv's thread pool; later ones get the kept bytes. The cache holds at most `maxBytes` of coded
 * bytes (least recently used out first) and is keyed by path, size and modification time, so a changed file is never
 * served from an older copy.
 */
import { readFile, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { Request, Response } from 'express';
import { bestCoding, markPrecompressed, ownBytes, type Coding } from './cachedResponse';

/** Text types worth compressing; images other than SVG, fonts and archives are already compressed. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.html', '.txt', '.xml', '.map', '.webmanifest']);
/** Below this, compressing saves less than it costs (the compression middleware's own threshold). */
const MIN_BYTES = 1024;
/** A larger file is left to the middleware: its best coding would hold the thread pool too long. */
const MAX_BYTES = 4 * 1024 * 1024;
/** What an entry holds besides its bytes (its key, validators and the LRU's node). */
const ENTRY_OVERHEAD_BYTES = 512;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

interface Coded {
  body: Buffer;
  /** The file it was made from: a file whose size or mtime changed is made again. */
  size: number;
  mtimeMs: number;
  etag: string;
}

export interface StaticFileCache {
  /**
   * Sends `file` (relative to `root`) in the best coding the client accepts when that is kept, and says so; false
   * when the caller should serve it as before (not kept yet, its coding being made, not compressible, not a file).
   */
  send(req: Request, res: Response, root: string, file: string, cacheControl: string): boolean;
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

function encode(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: 9 });
  return brotliAsync(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

export function createStaticFileCache(opts: { maxBytes: number; onLookup?: (hit: boolean) => void }): StaticFileCache {
  const lru = new LRUCache<string, Coded>({
    maxSize: opts.maxBytes,
    sizeCalculation: (c, key) => c.body.length + key.length + ENTRY_OVERHEAD_BYTES,
  });
  /** Codings being made: one per file and coding, however many requests ask meanwhile. */
  const making = new Set<string>();

  async function make(abs: string, coding: 'br' | 'gzip', key: string): Promise<void> {
    try {
      const before = await stat(abs);
      const body = await readFile(abs);
      const after = await stat(abs);
      // A file replaced while it was read is left for the next request.
      if (before.mtimeMs !== after.mtimeMs || before.size !== after.size || body.length !== after.size) return;
      const coded = ownBytes(await encode(body, coding));
      lru.set(key, {
        body: coded,
        size: after.size,
        mtimeMs: after.mtimeMs,
        etag: `"${after.size.toString(16)}-${Math.trunc(after.mtimeMs).toString(16)}-${coding}"`,
      });
    } catch {
      // Gone or unreadable: Express's static files answer for it.
    } finally {
      making.delete(key);
    }
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
      if (!st?.isFile() || st.size < MIN_BYTES || st.size > MAX_BYTES) return false;
      const key = `${abs}\0${coding}`;
      const kept = lru.get(key);
      if (!kept || kept.size !== st.size || kept.mtimeMs !== st.mtimeMs) {
        opts.onLookup?.(false);
        if (!making.has(key)) {
          making.add(key);
          void make(abs, coding, key);
        }
        return false;
      }
      opts.onLookup?.(true);
      markPrecompressed(res);
      res.vary('Accept-Encoding');
      res.set({ 'Cache-Control': cacheControl, ETag: kept.etag, 'Last-Modified': st.mtime.toUTCString() });
      const tags = req.headers['if-none-match'];
      if (tags && tags.split(',').some((t) => t.trim().replace(/^W\//, '') === kept.etag)) {
        res.status(304).end();
        return true;
      }
      res.type(ext);
      res.set({ 'Content-Encoding': coding, 'Content-Length': String(kept.body.length) });
      res.status(200).end(req.method === 'HEAD' ? undefined : kept.body);
      return true;
    },
  };
}
