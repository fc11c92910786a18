import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { RoutePreload } from '@aitools/platform/contract';
import { PRELOAD_MANIFEST_FILE, type ResolvedRelease } from '../releases/layout';

const NONE: RoutePreload = { files: [] };
/** Every release ever served has a manifest (a few hundred bytes): a long-lived server that sees many releases and
 *  previews keeps only the most recently used, bounded by their size on disk. */
export const PRELOAD_CACHE_BYTES = 1 << 20;
const cache = new LRUCache<string, { mtimeMs: number; bytes: number; modules: Record<string, unknown> }>({
  maxSize: PRELOAD_CACHE_BYTES,
  sizeCalculation: (entry) => Math.max(1, entry.bytes),
});
/** The bytes the cache holds (for the tests). */
export const preloadCacheBytes = (): number => cache.calculatedSize;

const strings = (v: unknown, valid: RegExp): string[] =>
  Array.isArray(v) ? v.filter((f): f is string => typeof f === 'string' && valid.test(f)) : [];

/** One module's entry of client/preload.json: `{ files }` (releases built before the host provided every shared
 *  package from its start-up chunks also list `shared`, now ignored), or a list of files (older still). Anything else
 *  is ignored: the page then names fewer modules, nothing breaks. */
export function parseRoutePreload(entry: unknown): RoutePreload {
  const files = Array.isArray(entry) ? entry : (entry as { files?: unknown } | null)?.files;
  return { files: strings(files, /^[\w.-]+\.js$/) };
}

/** The preload entry of a route module of a release (client/preload.json, written by the remote's build). */
export function routePreload(release: ResolvedRelease, module: string): RoutePreload {
  const file = join(release.clientDir, PRELOAD_MANIFEST_FILE);
  if (!existsSync(file)) return NONE;
  const { mtimeMs, size: bytes } = statSync(file);
  let entry = cache.get(file);
  if (!entry || entry.mtimeMs !== mtimeMs) {
    try {
      entry = { mtimeMs, bytes, modules: JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> };
    } catch {
      entry = { mtimeMs, bytes, modules: {} };
    }
    cache.set(file, entry);
  }
  return Object.hasOwn(entry.modules, module) ? parseRoutePreload(entry.modules[module]) : NONE;
}
