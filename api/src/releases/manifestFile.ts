/**
 * The manifest's file backend (one instance on SQLite): manifest.json beside the release folders, validated on every
 * read, written atomically, and its last good state kept in memory and on disk (manifest.last-good.json), which serves
 * while the file is bad. The model it holds is manifest.ts; the database backend, manifestStore.ts.
 */
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
import {
  emptyManifest,
  ManifestError,
  parseManifestText,
  StaleStateError,
  withEvent,
  type Manifest,
  type ManifestRead,
  type ManifestStore,
} from './manifest';

export const MANIFEST_FILE = 'manifest.json';
export const LAST_GOOD_FILE = 'manifest.last-good.json';

export function manifestPath(releasesDir: string): string {
  return join(releasesDir, MANIFEST_FILE);
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

/** manifest.json: a change by another process (an operator's command, an edit) is seen by the server's watch on the
 *  releases folder (serving.ts), not here. */
export function fileManifestStore(releasesDir: string): ManifestStore {
  const listeners: (() => void)[] = [];
  return {
    where: MANIFEST_FILE,
    read: () => readManifestChecked(releasesDir),
    async record(remote, event, expect) {
      const current = readManifestChecked(releasesDir).manifest;
      if (expect && !expect(current.remotes[remote]))
        throw new StaleStateError(`the state of ${remote} changed meanwhile`);
      const manifest = withEvent(current, remote, { ...event, from: current.remotes[remote]?.active ?? null });
      writeManifestAtomic(releasesDir, manifest);
      for (const listener of listeners) listener();
      return manifest;
    },
    onChange: (listener) => void listeners.push(listener),
    close: async () => {},
  };
}
