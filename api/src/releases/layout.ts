import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { remotePackageDir } from '../paths';
import { RELEASE_ID, releaseMetaSchema, type ReleaseMeta } from './manifest';

/**
 * The release folders' layout: where a release's files are (<releases>/<remote>/<id>/client, server/entry.mjs,
 * release.json), how its release.json is read, and the addresses the browser gets for them. Both release stores
 * and the serving code find files through here.
 */
/** What the browser gets per remote (served as /remotes.json and inlined into each page). */
export interface PublicRelease {
  id: string;
  entry: string;
  css: string[];
}

export const DEV_RELEASE_ID = 'dev';
/** File names inside a release (as the build helper in shell/platform/vite writes them). */
export const SERVER_ENTRY_FILE = 'entry.mjs';
export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** client/preload.json: exposed module -> its RoutePreload (@aitools/platform/contract; written by shell/platform/vite). */
export const PRELOAD_MANIFEST_FILE = 'preload.json';

export function releaseDir(releasesDir: string, remote: string, id: string): string {
  return join(releasesDir, remote, id);
}

/** release.json of a release, or null when it is missing or unreadable. */
const metaCache = new Map<string, ReleaseMeta | null>();

/** A release's release.json, validated; read and parsed again only when the file changed. */
export function readReleaseMeta(releasesDir: string, remote: string, id: string): ReleaseMeta | null {
  if (!RELEASE_ID.test(id)) return null;
  const file = join(releaseDir(releasesDir, remote, id), 'release.json');
  try {
    const st = statSync(file);
    const key = `${file}|${st.ino}|${st.mtimeMs}|${st.size}`;
    if (metaCache.has(key)) return metaCache.get(key)!;
    const meta = releaseMetaSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    const value = meta.success ? meta.data : null;
    metaCache.set(key, value);
    return value;
  } catch {
    return null;
  }
}

/** Where a remote's files are, for its active release or, for a remote in development, its own dist/ folder. */
export interface ResolvedRelease {
  remote: string;
  id: string;
  clientDir: string;
  serverEntry: string;
  css: string[];
}

function cssFiles(clientDir: string): string[] {
  return existsSync(clientDir)
    ? readdirSync(clientDir)
        .filter((f) => f.endsWith('.css'))
        .sort()
    : [];
}

/** A remote in development: served from its package's dist/ folder (release id "dev"). */
export function devRelease(remote: string): ResolvedRelease {
  const dist = join(remotePackageDir(remote), 'dist');
  const clientDir = join(dist, 'client');
  return {
    remote,
    id: DEV_RELEASE_ID,
    clientDir,
    serverEntry: join(dist, 'server', SERVER_ENTRY_FILE),
    css: cssFiles(clientDir),
  };
}

/** Where the files of one stored release are. */
export function storedRelease(
  releasesDir: string,
  remote: string,
  id: string,
  meta = readReleaseMeta(releasesDir, remote, id),
): ResolvedRelease {
  const dir = releaseDir(releasesDir, remote, id);
  return {
    remote,
    id,
    clientDir: join(dir, 'client'),
    serverEntry: join(dir, 'server', SERVER_ENTRY_FILE),
    css: meta?.css ?? cssFiles(join(dir, 'client')),
  };
}

export function remoteBaseUrl(remote: string, id: string): string {
  return `/remotes/${remote}/${id}/`;
}

/** The release as the browser gets it. */
export function publicRelease(release: ResolvedRelease): PublicRelease {
  const base = remoteBaseUrl(release.remote, release.id);
  return { id: release.id, entry: base + REMOTE_ENTRY_FILE, css: release.css.map((c) => base + c) };
}
