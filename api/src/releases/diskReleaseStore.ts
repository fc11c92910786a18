/** Release files on disk: each release a folder <remote>/<id> in RELEASES_DIR (one instance, SQLite). */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkRelease } from './health';
import { listFolders, placeRelease } from './localCopy';
import { readReleaseMeta, releaseDir } from './layout';
import type { ReleaseStore } from './releaseStore';

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
