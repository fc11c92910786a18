import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_VERSION } from '@aitools/platform/contract';
import { type Manifest, type ReleaseMeta } from './manifest';
import { readReleaseMeta, releaseDir, REMOTE_ENTRY_FILE, SERVER_ENTRY_FILE } from './layout';

/** Paths inside a release whose digests release.json records (see store.ts). */
export const CHECKED_FILES = [`client/${REMOTE_ENTRY_FILE}`, `server/${SERVER_ENTRY_FILE}`] as const;

export type ReleaseProblemKind = 'missing' | 'unreadable' | 'contract' | 'damaged';

export type ReleaseCheck = { ok: true; meta: ReleaseMeta } | { ok: false; kind: ReleaseProblemKind; problem: string };

/** Why a release's contract does not fit the running shell, or null when it does. */
export function contractProblem(meta: Pick<ReleaseMeta, 'contractVersion'>): string | null {
  if (meta.contractVersion === CONTRACT_VERSION) return null;
  return meta.contractVersion === undefined
    ? `it records no route-contract version (built before versions were recorded); the shell runs contract ${CONTRACT_VERSION}`
    : `it was built against route contract ${meta.contractVersion}; the shell runs contract ${CONTRACT_VERSION}`;
}

const digests = new Map<string, string>();

/** sha256 of a file, computed again only when the file changed; null when it is missing. */
export function fileDigest(file: string): string | null {
  let key: string;
  try {
    const st = statSync(file);
    key = `${file}|${st.ino}|${st.mtimeMs}|${st.size}`;
  } catch {
    return null;
  }
  let digest = digests.get(key);
  if (!digest) {
    digest = createHash('sha256').update(readFileSync(file)).digest('hex');
    digests.set(key, digest);
  }
  return digest;
}

/**
 * Whether a stored release can be served, from its files alone: its folder and release.json, a contract that
 * matches the shell's, and both entries present and unchanged since the release (release folders never change,
 * so a different digest means a damaged or tampered file). Whether its server entry imports is known only by
 * importing it (serving.ts).
 */
export function checkRelease(releasesDir: string, remote: string, id: string): ReleaseCheck {
  const dir = releaseDir(releasesDir, remote, id);
  try {
    if (!statSync(dir).isDirectory()) return { ok: false, kind: 'missing', problem: 'the release folder is missing' };
  } catch {
    return { ok: false, kind: 'missing', problem: 'the release folder is missing' };
  }
  const meta = readReleaseMeta(releasesDir, remote, id);
  if (!meta) return { ok: false, kind: 'unreadable', problem: 'release.json is missing or unreadable' };
  // Its files are built for the address of its own id: a copied or renamed folder cannot serve.
  if (meta.id !== id || meta.remote !== remote)
    return { ok: false, kind: 'damaged', problem: `release.json names another release (${meta.remote}/${meta.id})` };
  const contract = contractProblem(meta);
  if (contract) return { ok: false, kind: 'contract', problem: contract };
  for (const rel of CHECKED_FILES) {
    const digest = fileDigest(join(dir, rel));
    if (!digest) return { ok: false, kind: 'missing', problem: `${rel} is missing` };
    const recorded = meta.files?.[rel];
    if (recorded && recorded !== digest)
      return { ok: false, kind: 'damaged', problem: `${rel} changed since the release` };
  }
  return { ok: true, meta };
}

/**
 * The releases to try for a remote, best first: the active one, then the releases that were active before it
 * (newest first; a release that was rolled back from is skipped: it was rolled back for a reason), then any other
 * stored release built before the active one (newest first), for a manifest whose history was lost. Yielded
 * lazily: the stored folders are listed only when no release of the history is left to try.
 */
export function* releaseCandidates(releasesDir: string, manifest: Manifest, remote: string): Generator<string> {
  const state = manifest.remotes[remote];
  if (!state) return;
  const rolledBackFrom = new Set(
    state.history.filter((e) => e.action === 'rollback' && e.from).map((e) => e.from as string),
  );
  const seen = new Set<string>();
  const isNew = (id: string) => {
    if (seen.has(id) || rolledBackFrom.has(id)) return false;
    seen.add(id);
    return true;
  };
  seen.add(state.active);
  yield state.active;
  for (const e of [...state.history].reverse()) if (isNew(e.id)) yield e.id;
  let stored: { id: string; builtAt: string }[];
  try {
    stored = readdirSync(join(releasesDir, remote))
      .map((id) => ({ id, builtAt: readReleaseMeta(releasesDir, remote, id)?.builtAt ?? '' }))
      .filter((r) => r.builtAt);
  } catch {
    stored = [];
  }
  const activeBuilt = readReleaseMeta(releasesDir, remote, state.active)?.builtAt;
  const older = stored
    .filter((r) => !activeBuilt || r.builtAt < activeBuilt)
    .sort((a, b) => b.builtAt.localeCompare(a.builtAt));
  for (const r of older) if (isNew(r.id)) yield r.id;
}
