/**
 * The local copy of the release files (RELEASES_DIR): each release a folder <remote>/<id> with its release.json, placed
 * whole in one rename. Both backends of the release store (diskReleaseStore.ts, dbReleaseStore.ts) write it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ReleaseMeta } from './manifest';
import { readReleaseMeta, releaseDir } from './layout';
import { ReleaseError } from './refusal';

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
