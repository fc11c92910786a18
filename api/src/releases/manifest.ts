import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { dateTimeSchema } from '@aitools/contracts/dateTime';
import { remotePackageDir } from '../paths';

/**
 * The manifest (releases/manifest.json) names each remote's active release and keeps its history. It is the only
 * mutable file of the release store: release folders never change once written. It is validated on every read;
 * the last good one is kept in memory and on disk (manifest.last-good.json) and serves while the file is bad.
 */
/** What a release id can look like (also a path segment and part of URLs, so nothing else is let through). */
export const RELEASE_ID = /^\w[\w.-]{0,127}$/;
const releaseId = z.string().regex(RELEASE_ID, 'not a plausible release id');

/** release: made active for everyone; rollback: back to an earlier one; canary: `id` serves `canary` percent of
 *  visitors beside the active release; promote: the canary becomes active for everyone; abort: the canary ends. */
export const EVENT_ACTIONS = ['release', 'rollback', 'canary', 'promote', 'abort'] as const;
/** The `by` of what the server did on its own (autoRollback.ts). */
export const AUTOMATIC_ACTOR = 'automatic';

const eventSchema = z.object({
  action: z.enum(EVENT_ACTIONS),
  id: releaseId,
  /** The release that was active before. */
  from: releaseId.nullable(),
  at: z.string(),
  by: z.string(),
  /** canary events: the share of visitors, in percent. */
  canary: z.number().int().min(1).max(99).optional(),
  /** Why, for what the server did on its own ("automatic rollback: ..."). */
  note: z.string().max(1000).optional(),
});
const canarySchema = z.object({
  id: releaseId,
  percent: z.number().int().min(1).max(99),
  since: z.string(),
  by: z.string(),
});
const remoteStateSchema = z.object({
  active: releaseId,
  canary: canarySchema.optional(),
  history: z.array(eventSchema),
});
const manifestShape = z.object({ version: z.literal(1), remotes: z.record(z.string(), z.unknown()) });

export type ManifestEvent = z.infer<typeof eventSchema>;
export type RemoteState = z.infer<typeof remoteStateSchema>;
export type CanaryState = z.infer<typeof canarySchema>;

/** A remote's state after one more event: the history grows, the active release and the canary follow the event. */
export function applyEvent(state: RemoteState | undefined, event: ManifestEvent): RemoteState {
  const history = [...(state?.history ?? []), event];
  if (event.action === 'canary') {
    if (!state) throw new ManifestError('a canary needs an active release beside it');
    return {
      active: state.active,
      canary: { id: event.id, percent: event.canary ?? 1, since: event.at, by: event.by },
      history,
    };
  }
  if (event.action === 'abort') return { active: state?.active ?? event.from ?? event.id, history };
  return { active: event.id, history };
}

/** Releases the server rolled back on its own: only a person may make them active or a canary again (with force). */
export function rolledBackAutomatically(state: RemoteState | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of state?.history ?? []) {
    if (e.by !== AUTOMATIC_ACTOR) continue;
    const bad = e.action === 'abort' ? e.id : e.action === 'rollback' ? e.from : null;
    if (bad) out.set(bad, e.note ?? 'automatic rollback');
  }
  return out;
}

export interface Manifest {
  version: 1;
  remotes: Record<string, RemoteState>;
}

/** release.json, written beside the build output. */
export const releaseMetaSchema = z.object({
  id: releaseId,
  remote: z.string(),
  version: z.string(),
  builtAt: z.string(),
  /** Digest of everything the build was made from (releaseSource in sourceHash.ts). */
  sourceHash: z.string(),
  /** Short digests of each input and the checkout's commit; absent in releases made before they were recorded. */
  source: z.object({ inputs: z.record(z.string(), z.string()), gitCommit: z.string().nullable() }).optional(),
  /** Shared-dependency ranges the remote was built against. */
  shared: z.record(z.string(), z.string().optional()),
  /** Stylesheets, relative to the release's client folder. */
  css: z.array(z.string().regex(/^[\w.-]+\.css$/)),
  /** The route-module contract (CONTRACT_VERSION) the release was built against; absent in older releases. */
  contractVersion: z.number().int().optional(),
  /** sha256 (hex) of the entry files, by path in the release: a changed file means a damaged release. */
  files: z.record(z.string(), z.string()).optional(),
  /** Who stored it through the release API (a token's label); absent for a release built on the server. */
  releasedBy: z.string().optional(),
});
export type ReleaseMeta = z.infer<typeof releaseMetaSchema>;

/** How far ahead of the server's clock a build's time may be (the builder's clock may be a little ahead). */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * release.json as a build writes it, before the checks add what they read from the files (css, files). builtAt orders
 * the releases for pruning, so it must be a real time, not in the future, written as toISOString does (sorts as text).
 */
export const releaseDraftSchema = releaseMetaSchema
  .pick({ id: true, remote: true, version: true, sourceHash: true, source: true, shared: true })
  .extend({
    builtAt: dateTimeSchema('not an RFC 3339 date-time with its offset')
      // A string the format check refused (NaN) is that check's to report.
      .refine((v) => !(Date.parse(v) > Date.now() + CLOCK_SKEW_MS), "later than now (the build machine's clock?)")
      .transform((v) => new Date(v).toISOString()),
    contractVersion: z.number().int(),
  });
export type ReleaseDraft = z.infer<typeof releaseDraftSchema>;

/** What the browser gets per remote (served as /remotes.json and inlined into each page). */
export interface PublicRelease {
  id: string;
  entry: string;
  css: string[];
}

export const MANIFEST_FILE = 'manifest.json';
export const LAST_GOOD_FILE = 'manifest.last-good.json';
export const DEV_RELEASE_ID = 'dev';
/** File names inside a release (as the build helper in shell/platform/vite writes them). */
export const SERVER_ENTRY_FILE = 'entry.mjs';
export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** client/preload.json: exposed module -> its RoutePreload (@aitools/platform/contract; written by shell/platform/vite). */
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

export class ManifestError extends Error {}

const issueText = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

/**
 * Parses manifest text. A problem of one remote's entry stays with that remote (the others are kept); a file
 * that is not a manifest at all throws ManifestError.
 */
export function parseManifestText(text: string): { manifest: Manifest; problems: Record<string, string> } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestError(text.trim() ? 'not valid JSON (truncated or damaged)' : 'the file is empty');
  }
  const shape = manifestShape.safeParse(json);
  if (!shape.success) throw new ManifestError(`not a manifest (${issueText(shape.error)})`);
  const manifest = emptyManifest();
  const problems: Record<string, string> = {};
  for (const [remote, value] of Object.entries(shape.data.remotes)) {
    const state = remoteStateSchema.safeParse(value);
    if (state.success) manifest.remotes[remote] = state.data;
    else problems[remote] = issueText(state.error);
  }
  return { manifest, problems };
}

/** A read of the manifest: what to use, and what was wrong with the file. */
export interface ManifestRead {
  manifest: Manifest;
  ok: boolean;
  /** What is wrong with the file (absent when ok). */
  problem?: string;
  /** Remotes whose entry is taken from the last good manifest. */
  fromLastGood: string[];
  /** 'file': all from the file; 'last-good': some or all from the last good manifest; 'none': nothing usable. */
  servingFrom: 'file' | 'last-good' | 'none';
  /** Remotes whose entry is bad with no last good entry ('*': the whole file, none known): writing the manifest now
   *  would lose them, so release and rollback refuse until it is repaired. */
  unrecovered: string[];
}

const lastGoodByDir = new Map<string, { manifest: Manifest; text: string }>();

function lastGood(releasesDir: string): Manifest | null {
  const mem = lastGoodByDir.get(releasesDir);
  if (mem) return mem.manifest;
  // After a restart with a bad manifest: the copy on disk.
  const file = join(releasesDir, LAST_GOOD_FILE);
  if (!existsSync(file)) return null;
  try {
    const { manifest, problems } = parseManifestText(readFileSync(file, 'utf8'));
    if (Object.keys(problems).length) return null;
    lastGoodByDir.set(releasesDir, { manifest, text: JSON.stringify(manifest) });
    return manifest;
  } catch {
    return null;
  }
}

/** Remembers a good manifest, in memory and (when it changed) on disk, written atomically. */
function rememberGood(releasesDir: string, manifest: Manifest): void {
  const text = JSON.stringify(manifest);
  if (lastGoodByDir.get(releasesDir)?.text === text) return;
  lastGoodByDir.set(releasesDir, { manifest, text });
  try {
    writeJsonAtomic(join(releasesDir, LAST_GOOD_FILE), manifest);
  } catch {
    /* a read-only store still serves; the copy in memory holds */
  }
}

let cache: { path: string; key: string; read: ManifestRead } | null = null;

/**
 * Reads and validates the manifest; cheap to call often (re-parsed only when the file changed). A bad file
 * never throws: the result says what is wrong and serves the last good state (per remote where only some
 * entries are bad). The same object is returned until the file changes, so callers can report a problem once.
 */
export function readManifestChecked(releasesDir: string): ManifestRead {
  const path = manifestPath(releasesDir);
  let st: ReturnType<typeof statSync> | null;
  try {
    st = statSync(path);
  } catch {
    st = null;
  }
  const key = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : 'missing';
  if (cache && cache.path === path && cache.key === key) return cache.read;
  const read = computeRead(releasesDir, st ? path : null);
  cache = { path, key, read };
  return read;
}

function computeRead(releasesDir: string, path: string | null): ManifestRead {
  const good = lastGood(releasesDir);
  const fallback = (problem: string): ManifestRead => ({
    manifest: good ?? emptyManifest(),
    ok: false,
    problem,
    fromLastGood: good ? Object.keys(good.remotes) : [],
    servingFrom: good ? 'last-good' : 'none',
    unrecovered: good ? [] : ['*'],
  });
  // No manifest yet is a new store; no manifest after a good one was seen is a fault.
  if (!path)
    return good
      ? fallback('the manifest file is missing')
      : { manifest: emptyManifest(), ok: true, fromLastGood: [], servingFrom: 'file', unrecovered: [] };
  let parsed: ReturnType<typeof parseManifestText>;
  try {
    parsed = parseManifestText(readFileSync(path, 'utf8'));
  } catch (err) {
    return fallback(err instanceof ManifestError ? err.message : 'the manifest file cannot be read');
  }
  const bad = Object.keys(parsed.problems);
  if (!bad.length) {
    rememberGood(releasesDir, parsed.manifest);
    return { manifest: parsed.manifest, ok: true, fromLastGood: [], servingFrom: 'file', unrecovered: [] };
  }
  // Only the broken remotes fall back to their last good entry.
  const manifest = structuredClone(parsed.manifest);
  const fromLastGood: string[] = [];
  for (const remote of bad) {
    const previous = good?.remotes[remote];
    if (previous) {
      manifest.remotes[remote] = previous;
      fromLastGood.push(remote);
    }
  }
  return {
    manifest,
    ok: false,
    problem: bad.map((r) => `${r}: ${parsed.problems[r]}`).join('; '),
    fromLastGood,
    servingFrom: fromLastGood.length ? 'last-good' : 'file',
    unrecovered: bad.filter((r) => !good?.remotes[r]),
  };
}

/** The manifest to work with: the file's when good, else the last good state (see readManifestChecked). */
export function readManifest(releasesDir: string): Manifest {
  return readManifestChecked(releasesDir).manifest;
}

/** Writes to a temporary file, flushes it, then renames over the target: readers see the old or the new file,
 *  never a half-written one, even if the process dies mid-write. */
function writeJsonAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(value, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  // Leftovers of writers that died mid-write are never read; clear them.
  const prefix = `${basename(path)}.`;
  for (const f of readdirSync(dirname(path))) {
    if (f.startsWith(prefix) && f.endsWith('.tmp') && f !== basename(tmp))
      rmSync(join(dirname(path), f), { force: true });
  }
  const dirFd = openSync(dirname(path), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/** Writes the manifest atomically (it is validated first) and keeps it as the last good one. */
export function writeManifestAtomic(releasesDir: string, manifest: Manifest): void {
  const { problems } = parseManifestText(JSON.stringify(manifest));
  if (Object.keys(problems).length)
    throw new ManifestError(`refusing to write an invalid manifest: ${Object.values(problems).join('; ')}`);
  writeJsonAtomic(manifestPath(releasesDir), manifest);
  rememberGood(releasesDir, manifest);
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
