import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PRELOAD_MANIFEST_FILE, type ResolvedRelease } from '../releases/manifest';
const cache = new Map<string, { mtimeMs: number; files: Record<string, string[]> }>();

/** The files to preload for a route module of a release, relative to the release's client folder. */
export function routePreloadFiles(release: ResolvedRelease, module: string): string[] {
  const file = join(release.clientDir, PRELOAD_MANIFEST_FILE);
  if (!existsSync(file)) return [];
  const { mtimeMs } = statSync(file);
  let entry = cache.get(file);
  if (!entry || entry.mtimeMs !== mtimeMs) {
    try {
      entry = { mtimeMs, files: JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]> };
    } catch {
      entry = { mtimeMs, files: {} };
    }
    cache.set(file, entry);
  }
  const files = entry.files[module];
  return Array.isArray(files) ? files.filter((f) => typeof f === 'string' && /^[\w.-]+\.js$/.test(f)) : [];
}
