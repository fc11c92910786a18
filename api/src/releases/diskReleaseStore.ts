/** Release files on disk: each release a folder <remote>/<id> in RELEASES_DIR (one instance, SQLite). */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRelease } from './health';
import { readReleaseMeta, releaseDir, type ReleaseMeta } from './manifest';
import { ReleaseError } from './refusal';
import type { ReleaseStore } from './releaseStore';

/** A fresh folder inside the local copy (same filesystem: renamed into place in one step). */
export function stagingDir(releasesDir: string, name: string): string {
  return join(releasesDir, '.staging', `${name}-${randomBytes(6).toString('hex')}`);
}

export const releaseExists = (meta: Pick<ReleaseMeta, 'remote' | 'id'>) =>
  new ReleaseError(
    `Release ${meta.id} of ${meta.remote} exists already; a release id is never reused. Build again (a new build gets a new id).`,
    409,
  );

/**
 * Moves a release folder into the local copy under its id, with `meta` as its release.json. `replace`: a folder
 * already there (a damaged copy) is swapped out; otherwise it is a 409.
 */
export function placeRelease(releasesDir: string, dir: string, meta: ReleaseMeta, replace = false): void {
  const target = releaseDir(releasesDir, meta.remote, meta.id);
  writeFileSync(join(dir, 'release.json'), JSON.stringify(meta, null, 2) + '\n');
  mkdirSync(join(releasesDir, meta.remote), { recursive: true });
  if (replace && existsSync(target)) {
    const old = `${dir}.old`;
    renameSync(target, old);
    rmSync(old, { recursive: true, force: true });
  } else if (existsSync(target)) throw releaseExists(meta);
  try {
    renameSync(dir, target);
  } catch (err) {
    // Another writer of the same id won the rename.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') throw releaseExists(meta);
    throw err;
  }
}

/** The releases folder of a remote, newest first (what the folders' release.json say). */
export function listFolders(releasesDir: string, remote: string): ReleaseMeta[] {
  const dir = join(releasesDir, remote);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((id) => readReleaseMeta(releasesDir, remote, id))
    .filter((m): m is ReleaseMeta => m !== null)
    .sort((a, b) => b.builtAt.localeCompare(a.builtAt));
}

export function diskReleaseStore(releasesDir: string): ReleaseStore {
  return {
    releasesDir,
    fetches: false,
    async put(dir, meta) {
      placeRelease(releasesDir, dir, meta);
    },
    meta: async (remote, id) => readReleaseMeta(releasesDir, remote, id),
    list: async (remote) => listFolders(releasesDir, remote),
    async remove(remote, ids) {
      for (const id of ids) rmSync(releaseDir(releasesDir, remote, id), { recursive: true, force: true });
    },
    // The folders are the store: nothing to tidy, and nowhere to fetch a missing file from.
    tidy: async () => [],
    materialise: async (remote, id, path) =>
      checkRelease(releasesDir, remote, id).ok &&
      (!path || existsSync(join(releaseDir(releasesDir, remote, id), path))),
  };
}
