import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { remotePackageDir } from '../paths';

/**
 * The manifest (releases/manifest.json) names each remote's active release and keeps its history. It is the only
 * mutable file of the release store: release folders never change once written.
 */
export interface ManifestEvent {
  action: 'release' | 'rollback';
  id: string;
  /** The release that was active before. */
  from: string | null;
  at: string;
  by: string;
}

export interface RemoteState {
  active: string;
  history: ManifestEvent[];
}

export interface Manifest {
  version: 1;
  remotes: Record<string, RemoteState>;
}

/** release.json, written beside the build output. */
export interface ReleaseMeta {
  id: string;
  remote: string;
  version: string;
  builtAt: string;
  /** Digest of everything the build was made from (releaseSource in sourceHash.ts). */
  sourceHash: string;
  /** Short digests of each input and the checkout's commit; absent in releases made before they were recorded. */
  source?: { inputs: Record<string, string>; gitCommit: string | null };
  /** Shared-dependency ranges the remote was built against. */
  shared: Record<string, string>;
  /** Stylesheets, relative to the release's client folder. */
  css: string[];
}

/** What the browser gets per remote (served as /remotes.json and inlined into each page). */
export interface PublicRelease {
  id: string;
  entry: string;
  css: string[];
}

export const MANIFEST_FILE = 'manifest.json';
export const DEV_RELEASE_ID = 'dev';
/** File names inside a release (as the build helper in shell/platform/vite writes them). */
export const SERVER_ENTRY_FILE = 'entry.mjs';
export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** client/preload.json: exposed module -> the files its code needs (see shell/platform/vite). */
export const PRELOAD_MANIFEST_FILE = 'preload.json';

export function manifestPath(releasesDir: string): string {
  return join(releasesDir, MANIFEST_FILE);
}

export function releaseDir(releasesDir: string, remote: string, id: string): string {
  return join(releasesDir, remote, id);
}

export function emptyManifest(): Manifest {
  return { version: 1, remotes: {} };
}

let cache: { path: string; mtimeMs: number; size: number; manifest: Manifest } | null = null;

/** Reads the manifest; cheap on every request (re-parsed only when the file changed). */
export function readManifest(releasesDir: string): Manifest {
  const path = manifestPath(releasesDir);
  if (!existsSync(path)) return emptyManifest();
  const st = statSync(path);
  if (cache && cache.path === path && cache.mtimeMs === st.mtimeMs && cache.size === st.size) return cache.manifest;
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  if (manifest.version !== 1 || typeof manifest.remotes !== 'object') throw new Error(`Unreadable manifest at ${path}`);
  cache = { path, mtimeMs: st.mtimeMs, size: st.size, manifest };
  return manifest;
}

/** Writes to a temporary file, flushes it, then renames over the manifest: readers see the old or the new file,
 *  never a half-written one, even if the process dies mid-write. */
export function writeManifestAtomic(releasesDir: string, manifest: Manifest): void {
  const path = manifestPath(releasesDir);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(manifest, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  // Leftovers of writers that died mid-write are never read; clear them.
  for (const f of readdirSync(dirname(path))) {
    if (f.startsWith(`${MANIFEST_FILE}.`) && f.endsWith('.tmp') && f !== basename(tmp)) rmSync(join(dirname(path), f), { force: true });
  }
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

export function readReleaseMeta(releasesDir: string, remote: string, id: string): ReleaseMeta | null {
  const file = join(releaseDir(releasesDir, remote, id), 'release.json');
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as ReleaseMeta;
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
  return existsSync(clientDir) ? readdirSync(clientDir).filter((f) => f.endsWith('.css')).sort() : [];
}

export function resolveRelease(releasesDir: string, remote: string, devRemotes: string[] = []): ResolvedRelease | null {
  if (devRemotes.includes(remote)) {
    const dist = join(remotePackageDir(remote), 'dist');
    const clientDir = join(dist, 'client');
    return { remote, id: DEV_RELEASE_ID, clientDir, serverEntry: join(dist, 'server', SERVER_ENTRY_FILE), css: cssFiles(clientDir) };
  }
  const state = readManifest(releasesDir).remotes[remote];
  if (!state) return null;
  const dir = releaseDir(releasesDir, remote, state.active);
  const meta = readReleaseMeta(releasesDir, remote, state.active);
  return { remote, id: state.active, clientDir: join(dir, 'client'), serverEntry: join(dir, 'server', SERVER_ENTRY_FILE), css: meta?.css ?? cssFiles(join(dir, 'client')) };
}

export function remoteBaseUrl(remote: string, id: string): string {
  return `/remotes/${remote}/${id}/`;
}

export function publicManifest(releasesDir: string, remotes: readonly string[], devRemotes: string[] = []): Record<string, PublicRelease> {
  const out: Record<string, PublicRelease> = {};
  for (const remote of remotes) {
    const r = resolveRelease(releasesDir, remote, devRemotes);
    if (!r) continue;
    const base = remoteBaseUrl(remote, r.id);
    out[remote] = { id: r.id, entry: base + REMOTE_ENTRY_FILE, css: r.css.map((c) => base + c) };
  }
  return out;
}
